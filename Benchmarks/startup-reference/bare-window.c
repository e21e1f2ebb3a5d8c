/* The floor under Billfold's start-up: a libadwaita window of Billfold's default size with a
 * header bar and a status page, and nothing else (no plugins, no library, no Swift runtime).
 * Timed by the same benchmark, it shows what GTK 4 and libadwaita alone cost next to
 * gnome-calculator:
 *
 *   cc -O2 Benchmarks/startup-reference/bare-window.c -o .build/bare-window \
 *      $(pkg-config --cflags --libs libadwaita-1)
 *   Benchmarks/startup-benchmark --binary .build/bare-window --library fresh
 */
#include <adwaita.h>

static void
activate (GtkApplication *application, gpointer data)
{
  GtkWidget *window = adw_application_window_new (application);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);

  GtkWidget *status = adw_status_page_new ();
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (status), "x-office-document-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (status), "Welcome");
  gtk_widget_set_vexpand (status, TRUE);

  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (content), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (content), status);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), content);
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int argc, char **argv)
{
  /* Unique like Billfold and gnome-calculator, so it pays the same D-Bus registration. */
  AdwApplication *application = adw_application_new ("io.github.billfold.BareWindow", G_APPLICATION_DEFAULT_FLAGS);
  g_signal_connect (application, "activate", G_CALLBACK (activate), NULL);
  int status = g_application_run (G_APPLICATION (application), argc, argv);
  g_object_unref (application);
  return status;
}
