import Foundation

/// What a failed file operation means, in words a person can act on and in their language:
/// a full disk, a read-only disk or file, a missing permission are named as such.
public enum FileProblem {
    /// The reason for `errno`, translated; strerror's text otherwise.
    public static func reason(errno code: Int32) -> String {
        switch code {
        case ENOSPC, EDQUOT: return tr("the disk is full")
        case EFBIG: return tr("the file is larger than this disk or the system allows")
        case EROFS: return tr("the disk is read-only")
        case EACCES, EPERM: return tr("permission denied (the file or its folder is read-only)")
        case ENOENT: return tr("the file or its folder does not exist")
        case ENOTDIR: return tr("a part of the path is not a folder")
        case EISDIR: return tr("it is a folder")
        case EWOULDBLOCK: return tr("another program is using it")
        default: return String(cString: strerror(code))
        }
    }
}
