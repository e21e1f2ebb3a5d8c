import CIntl
import Glibc

/// Puts the heap a short command is about to fill on transparent huge pages.
///
/// Making a document touches megabytes of new heap, and the first touch of each 4 KB page is a
/// page fault, which costs microseconds in a virtual machine: a fifth of a 1 000-line invoice's
/// export. On huge pages one fault maps 2 MB. glibc does the same with its tunable
/// `glibc.malloc.hugetlb=1`, but tunables come only from a new process's environment.
public enum HugePageHeap {
    /// How much of the heap is advised; blocks up to this size come from the heap rather than
    /// from mappings of their own, and freed memory stays in it, to be used again without faults.
    static let reserve = 32 << 20
    private static let hugePage = 2 << 20

    /// Once per process, on the thread that will do the work (its malloc arena is the one
    /// advised). Where the kernel has no transparent huge pages the advice changes nothing.
    public static func prepare() {
        _ = prepared
    }

    private static let prepared: Void = {
        guard mallopt(M_MMAP_THRESHOLD, Int32(reserve)) == 1, mallopt(M_TRIM_THRESHOLD, Int32(2 * reserve)) == 1 else { return }
        // A block just under the threshold grows this thread's heap by its size; advised and
        // freed, it is the heap's free top, which the work then fills.
        let size = reserve - hugePage
        guard let block = malloc(size) else { return }
        let address = UInt(bitPattern: block)
        let start = (address + UInt(hugePage) - 1) & ~UInt(hugePage - 1)
        let end = (address + UInt(size)) & ~UInt(hugePage - 1)
        if end > start { madvise(UnsafeMutableRawPointer(bitPattern: start), Int(end - start), MADV_HUGEPAGE) }
        free(block)
    }()
}
