/// Where Billfold Pro is sold. A vendor building Billfold sets their shop's address here: it is
/// the one place the paywall and the Billfold Pro page take it from. Nothing is fetched; the
/// address only opens in the user's browser when they ask.
public enum Purchase {
    public static let address = "https://billfold.github.io/pro"

    /// The address as people read it, without “https://”.
    public static var shownAddress: String {
        address.hasPrefix("https://") ? String(address.dropFirst("https://".count)) : address
    }
}
