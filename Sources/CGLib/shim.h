#ifndef BILLFOLD_CGLIB_SHIM_H
#define BILLFOLD_CGLIB_SHIM_H
#include <glib.h>
#include <glib-unix.h>
#include <glib-object.h>
#include <gio/gio.h>
#include <gio/gunixfdlist.h>

// GType macros are not visible to Swift: fixed functions instead.
static inline GType bf_type_string(void) { return G_TYPE_STRING; }
static inline GType bf_type_boolean(void) { return G_TYPE_BOOLEAN; }
static inline GType bf_type_int(void) { return G_TYPE_INT; }
static inline GType bf_type_int64(void) { return G_TYPE_INT64; }
static inline GType bf_type_double(void) { return G_TYPE_DOUBLE; }
static inline GType bf_type_object(void) { return G_TYPE_OBJECT; }

static inline gboolean bf_is_object(gpointer p) { return G_IS_OBJECT(p); }
static inline gboolean bf_object_is_floating(gpointer p) { return g_object_is_floating(p); }

// g_signal_connect is a macro.
static inline gulong bf_signal_connect(gpointer instance, const char *signal, GCallback handler,
                                       gpointer data, GClosureNotify destroy, gboolean after) {
    return g_signal_connect_data(instance, signal, handler, data, destroy,
                                 after ? G_CONNECT_AFTER : (GConnectFlags)0);
}

// g_signal_emit_by_name is variadic: fixed arities for what the app emits.
static inline void bf_signal_emit0(gpointer instance, const char *signal) {
    g_signal_emit_by_name(instance, signal);
}

// g_object_set / g_object_get are variadic.
static inline void bf_object_set_bool(gpointer o, const char *name, gboolean v) { g_object_set(o, name, v, NULL); }
static inline void bf_object_set_int(gpointer o, const char *name, gint v) { g_object_set(o, name, v, NULL); }
static inline void bf_object_set_double(gpointer o, const char *name, gdouble v) { g_object_set(o, name, v, NULL); }
static inline void bf_object_set_string(gpointer o, const char *name, const char *v) { g_object_set(o, name, v, NULL); }
static inline void bf_object_set_object(gpointer o, const char *name, gpointer v) { g_object_set(o, name, v, NULL); }
static inline gboolean bf_object_get_bool(gpointer o, const char *name) { gboolean v = FALSE; g_object_get(o, name, &v, NULL); return v; }
static inline gint bf_object_get_int(gpointer o, const char *name) { gint v = 0; g_object_get(o, name, &v, NULL); return v; }
static inline gdouble bf_object_get_double(gpointer o, const char *name) { gdouble v = 0; g_object_get(o, name, &v, NULL); return v; }
static inline gchar *bf_object_get_string(gpointer o, const char *name) { gchar *v = NULL; g_object_get(o, name, &v, NULL); return v; }

static inline GObject *bf_object(gpointer p) { return G_OBJECT(p); }
static inline GApplication *bf_application(gpointer p) { return G_APPLICATION(p); }
static inline GActionMap *bf_action_map(gpointer p) { return G_ACTION_MAP(p); }

// libdispatch's hooks for a foreign main loop (CoreFoundation uses the same pair). On Linux the
// handle is an eventfd that becomes readable when the main queue has work.
extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

static inline guint bf_unix_fd_add(gint fd, GUnixFDSourceFunc func, gpointer data) {
    return g_unix_fd_add(fd, G_IO_IN, func, data);
}

// GLIB_CHECK_VERSION is a macro.
static inline gboolean bf_glib_at_least(guint major, guint minor) {
    return glib_major_version > major || (glib_major_version == major && glib_minor_version >= minor);
}

// Signals: one generic closure, whose marshaller reads the emission's GValues, and what it needs
// to check a handler against the signal's declared shape (g_signal_query).
typedef enum { BF_KIND_NONE = 0, BF_KIND_INTEGER = 1, BF_KIND_DOUBLE = 2, BF_KIND_POINTER = 3 } BFValueKind;

static inline BFValueKind bf_type_kind(GType type) {
    switch (G_TYPE_FUNDAMENTAL(type & ~G_SIGNAL_TYPE_STATIC_SCOPE)) {
    case G_TYPE_NONE: return BF_KIND_NONE;
    case G_TYPE_BOOLEAN: case G_TYPE_CHAR: case G_TYPE_UCHAR: case G_TYPE_INT: case G_TYPE_UINT:
    case G_TYPE_LONG: case G_TYPE_ULONG: case G_TYPE_INT64: case G_TYPE_UINT64:
    case G_TYPE_ENUM: case G_TYPE_FLAGS: return BF_KIND_INTEGER;
    case G_TYPE_FLOAT: case G_TYPE_DOUBLE: return BF_KIND_DOUBLE;
    default: return BF_KIND_POINTER;
    }
}

// The calling thread's id, to tell where a finalizer ran.
#include <unistd.h>
#include <sys/syscall.h>
static inline gint64 bf_thread_id(void) { return syscall(SYS_gettid); }

static inline GType bf_object_type(gpointer object) { return G_OBJECT_TYPE(object); }

static inline GClosure *bf_closure_new(gpointer data, GClosureMarshal marshal, GClosureNotify release) {
    GClosure *closure = g_closure_new_simple(sizeof(GClosure), data);
    g_closure_set_marshal(closure, marshal);
    g_closure_add_finalize_notifier(closure, data, release);
    return closure;
}

static inline gpointer bf_closure_data(GClosure *closure) { return closure->data; }

static inline gint64 bf_value_get_integer(const GValue *value) {
    switch (G_TYPE_FUNDAMENTAL(G_VALUE_TYPE(value))) {
    case G_TYPE_BOOLEAN: return g_value_get_boolean(value);
    case G_TYPE_CHAR: return g_value_get_schar(value);
    case G_TYPE_UCHAR: return g_value_get_uchar(value);
    case G_TYPE_INT: return g_value_get_int(value);
    case G_TYPE_UINT: return g_value_get_uint(value);
    case G_TYPE_LONG: return g_value_get_long(value);
    case G_TYPE_ULONG: return (gint64)g_value_get_ulong(value);
    case G_TYPE_INT64: return g_value_get_int64(value);
    case G_TYPE_UINT64: return (gint64)g_value_get_uint64(value);
    case G_TYPE_ENUM: return g_value_get_enum(value);
    case G_TYPE_FLAGS: return g_value_get_flags(value);
    default: return 0;
    }
}

static inline gdouble bf_value_get_real(const GValue *value) {
    return G_VALUE_HOLDS_FLOAT(value) ? g_value_get_float(value) : g_value_get_double(value);
}

static inline void bf_value_set_integer(GValue *value, gint64 number) {
    switch (G_TYPE_FUNDAMENTAL(G_VALUE_TYPE(value))) {
    case G_TYPE_BOOLEAN: g_value_set_boolean(value, number != 0); break;
    case G_TYPE_INT: g_value_set_int(value, (gint)number); break;
    case G_TYPE_UINT: g_value_set_uint(value, (guint)number); break;
    case G_TYPE_ENUM: g_value_set_enum(value, (gint)number); break;
    case G_TYPE_INT64: g_value_set_int64(value, number); break;
    default: break;
    }
}
#endif
