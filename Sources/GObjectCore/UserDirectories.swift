import CGLib

/// The user's well-known folders (XDG user directories), named in their language.
public enum UserDirectories {
    /// The Documents folder, e.g. for the first Save As; nil when the user has none set up.
    public static var documents: String? {
        g_get_user_special_dir(G_USER_DIRECTORY_DOCUMENTS).map { String(cString: $0) }
    }
}
