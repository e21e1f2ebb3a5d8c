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
#endif
