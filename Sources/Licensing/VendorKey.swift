/// The vendor's public key, compiled in. Licences for Billfold are signed with its secret half,
/// which is never in the repository. Nothing (environment, setting, file) can replace it at run
/// time; only tests and the vendor tool verify against other keys, by passing them explicitly.
public enum VendorKey {
    /// Key id d2d903014adf7102, base64 tyALKgnm9Ccc4NDSBOfJdfA3MCn3ld/feUiV4JjkOD8=
    public static let publicKey = LicensePublicKey(checkedBytes: [
        0xb7, 0x20, 0x0b, 0x2a, 0x09, 0xe6, 0xf4, 0x27,
        0x1c, 0xe0, 0xd0, 0xd2, 0x04, 0xe7, 0xc9, 0x75,
        0xf0, 0x37, 0x30, 0x29, 0xf7, 0x95, 0xdf, 0xdf,
        0x79, 0x48, 0x95, 0xe0, 0x98, 0xe4, 0x38, 0x3f,
    ])
}
