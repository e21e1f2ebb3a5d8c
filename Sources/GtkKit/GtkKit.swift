// The GtkKit module.
