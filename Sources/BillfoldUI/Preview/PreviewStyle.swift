import GtkKit

/// The preview's look, installed with the widget so it is the same in the app, in tests and in
/// the benchmark. Colours come from libadwaita's named colours: light, dark and high contrast.
@MainActor
enum PreviewStyle {
    static func install() {
        StyleSheet.install(css, named: "billfold-document-preview")
    }

    private static let css = """
    /* The surface pages lie on: a shade darker than the window, as in GNOME's document viewer. */
    .document-preview-canvas {
      background-color: @window_bg_color;
      background-image: linear-gradient(@shade_color, @shade_color), linear-gradient(@shade_color, @shade_color);
    }

    /* Paper stays white in the dark style too: it shows what will be printed. */
    .document-page {
      background-color: white;
      box-shadow: 0 1px 3px 1px alpha(black, 0.12), 0 2px 8px 2px alpha(black, 0.08);
    }

    .document-preview-controls {
      margin: 12px;
      padding: 3px;
      border-radius: 9999px;
    }

    .document-preview-controls .page-indicator {
      padding: 0 10px;
      font-feature-settings: "tnum";
    }

    .document-preview-controls .zoom-level {
      font-feature-settings: "tnum";
    }
    """
}
