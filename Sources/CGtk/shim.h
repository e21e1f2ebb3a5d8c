#ifndef BILLFOLD_CGTK_SHIM_H
#define BILLFOLD_CGTK_SHIM_H
#include <gtk/gtk.h>
#include <adwaita.h>

static inline GtkWidget *bf_widget(gpointer p) { return GTK_WIDGET(p); }
static inline GtkWindow *bf_window(gpointer p) { return GTK_WINDOW(p); }
static inline GtkBox *bf_box(gpointer p) { return GTK_BOX(p); }
static inline GtkEditable *bf_editable(gpointer p) { return GTK_EDITABLE(p); }
static inline GtkAccessible *bf_accessible(gpointer p) { return GTK_ACCESSIBLE(p); }

// gtk_accessible_update_property is variadic.
static inline void bf_accessible_set_label(gpointer w, const char *label) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(w), GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
}
static inline void bf_accessible_set_description(gpointer w, const char *text) {
    gtk_accessible_update_property(GTK_ACCESSIBLE(w), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

// Leaves a purely visual widget out of what assistive technologies read.
static inline void bf_accessible_set_hidden(gpointer w, gboolean hidden) {
    gtk_accessible_update_state(GTK_ACCESSIBLE(w), GTK_ACCESSIBLE_STATE_HIDDEN, hidden, -1);
}

// The desktop font and resolution a widget's text follows, "Cantarell 11 at 96" (caller frees;
// g_object_get is variadic). Unlike the widget's Pango context, it costs the widget nothing.
static inline char *bf_widget_font_key(gpointer w) {
    char *font = NULL;
    int dpi = 0;
    g_object_get(gtk_widget_get_settings(GTK_WIDGET(w)), "gtk-font-name", &font, "gtk-xft-dpi", &dpi, NULL);
    char *key = g_strdup_printf("%s at %d", font ? font : "", dpi);
    g_free(font);
    return key;
}

static inline gboolean bf_adw_at_least(guint major, guint minor) {
    return adw_get_major_version() > major ||
           (adw_get_major_version() == major && adw_get_minor_version() >= minor);
}
static inline gboolean bf_gtk_at_least(guint major, guint minor) {
    return gtk_get_major_version() > major ||
           (gtk_get_major_version() == major && gtk_get_minor_version() >= minor);
}

// g_signal_emit_by_name is variadic: deliver a file to a drop target as a drag would.
static inline gboolean bf_drop_target_emit_file(gpointer target, GFile *file, double x, double y) {
    GValue value = G_VALUE_INIT;
    g_value_init(&value, G_TYPE_FILE);
    g_value_set_object(&value, file);
    gboolean accepted = FALSE;
    g_signal_emit_by_name(target, "drop", &value, x, y, &accepted);
    g_value_unset(&value);
    return accepted;
}
static inline GFile *bf_value_get_file(const GValue *value) {
    return G_VALUE_HOLDS(value, G_TYPE_FILE) ? G_FILE(g_value_get_object(value)) : NULL;
}
static inline GType bf_type_file(void) { return G_TYPE_FILE; }
static inline void bf_native_dialog_emit_response(gpointer dialog, int response) {
    g_signal_emit_by_name(dialog, "response", response);
}

// Scrolling as a wheel or touchpad would, for tests (g_signal_emit_by_name is variadic).
static inline gboolean bf_scroll_controller_emit(gpointer controller, double dx, double dy) {
    gboolean handled = FALSE;
    g_signal_emit_by_name(controller, "scroll", dx, dy, &handled);
    return handled;
}
// A press as a pointer would give it, for tests (g_signal_emit_by_name is variadic).
static inline void bf_gesture_click_emit_pressed(gpointer gesture, int presses, double x, double y) {
    g_signal_emit_by_name(gesture, "pressed", presses, x, y);
}
static inline void bf_gesture_click_emit_released(gpointer gesture, int presses, double x, double y) {
    g_signal_emit_by_name(gesture, "released", presses, x, y);
}
static inline gboolean bf_modifiers_have_control(GdkModifierType state) {
    return (state & GDK_CONTROL_MASK) != 0;
}
#endif
