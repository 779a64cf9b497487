//! The library's only `unsafe` code: mapping a stored file into memory, asking the operating
//! system which user npuzzle runs as, asking it to back a large allocation with huge
//! pages, asking the processor to start fetching a byte of a table the search will read
//! soon, and asking the kernel to let a write past the file-size limit fail instead of
//! ending the process. Everything else calls these five safe functions.
//!
//! # Safety of the memory map
//! `memmap2::Mmap::map` is unsafe because the mapped bytes could change (or vanish, if the
//! file is truncated) while a `&[u8]` to them is held. The argument that they do not rests on
//! three rules, each kept in one place of the store:
//!
//! 1. npuzzle never changes a stored file in place: every write goes to a temporary file in
//!    the same directory that is then renamed over the old name
//!    ([`write_atomic`](super::file::write_atomic)), so a mapping always shows one complete,
//!    unchanging file (the old inode lives on until the mapping is dropped).
//! 2. Files found in a data directory are opened only when the user npuzzle runs as owns them
//!    and no other user may write them (`check_trusted` in [`file`](super::file)), so no other
//!    user can change one in place either.
//! 3. The bytes are validated before they are trusted: the header when the mapping is made,
//!    each block of the body against its checksum before a query reads from it (or the whole
//!    body at open), so a file that the user's own programs truncate or overwrite in place is
//!    found damaged rather than read as valid, as long as it is damaged before it is read.
//!
//! What stays outside the guarantee: another program of the same user writing a mapped file
//! in place while npuzzle reads it. A read of a page that shrank away is then a `SIGBUS`, not
//! a wrong answer.
#![allow(unsafe_code)]

use std::fs::File;
use std::io;

use memmap2::Mmap;

/// Maps `file`, a regular file opened read-only and not empty, into memory read-only.
///
/// # Errors
/// The operating system's, when the file cannot be mapped.
pub(crate) fn map_read_only(file: &File) -> io::Result<Mmap> {
    // SAFETY: see the module documentation: npuzzle never writes a stored file in place
    // (rule 1), a data directory's files are the user's own and no one else's to write
    // (rule 2), and no byte of the map is used before it is validated (rule 3).
    unsafe { Mmap::map(file) }
}

/// The user npuzzle runs as.
#[cfg(unix)]
pub(crate) fn effective_uid() -> u32 {
    // SAFETY: geteuid takes no arguments, touches no memory of ours and cannot fail.
    unsafe { libc::geteuid() }
}

/// Has a write past the process's file-size limit (`ulimit -f`, `RLIMIT_FSIZE`) fail with an
/// error (`EFBIG`, "File too large") instead of the kernel ending the process with `SIGXFSZ`
/// at that write. Why: a program that writes results as it goes (`npuzzle solve-set`, a
/// build, a batch into a file) must report the line it could not write and keep the rest;
/// killed mid-write, it can do neither. Rust already does the same for `SIGPIPE`, and Python
/// for both. Process-wide and kept across `exec` by child processes, so it is for a program's
/// `main` to call (the `npuzzle` command does, first thing), not for a library to call behind
/// its user's back; calling it again does nothing more. Elsewhere than Unix, nothing.
///
/// ```
/// npuzzle::store::ignore_file_size_signal();
/// ```
pub fn ignore_file_size_signal() {
    #[cfg(unix)]
    // SAFETY: SIG_IGN installs no handler of ours, so no code of this process can run at an
    // unexpected moment because of it; `signal` with a valid signal number and SIG_IGN has no
    // other effect than the disposition, is safe to call from any thread, and touches no
    // memory of ours. Its result (the previous disposition; SIG_ERR only for an invalid
    // signal number, which SIGXFSZ is not) is not needed.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}

/// Asks Linux to back `memory` (the spare capacity of a large allocation, not touched yet)
/// with transparent huge pages where the system allows it (its `madvise` mode). Why: the
/// pattern-database generator reads and writes arrays of hundreds of megabytes at places
/// a move away in rank, which with 4 KiB pages is a TLB miss and a page walk each. A hint:
/// the kernel may ignore it; elsewhere than Linux, nothing.
pub(crate) fn advise_huge_pages<T>(memory: &mut [std::mem::MaybeUninit<T>]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let base = memory.as_mut_ptr().cast::<u8>();
        let start = base as usize;
        let end = start + std::mem::size_of_val(memory);
        let from = start.next_multiple_of(HUGE);
        let to = end / HUGE * HUGE;
        if from < to {
            // SAFETY: `from..to` lies inside `memory`, memory this process owns and holds a
            // unique borrow of; MADV_HUGEPAGE changes only which pages the kernel backs the
            // range with, never its contents, its mapping or its protection. The result is
            // ignored: a refused hint leaves 4 KiB pages, which are as correct.
            unsafe {
                libc::madvise(
                    base.wrapping_add(from - start).cast(),
                    to - from,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = memory;
}

/// Asks the processor to start loading the cache line that holds `bytes[index]` into every
/// level of its cache, and returns at once. Why: the pattern-database search reads two
/// entries a child at random places of tables of hundreds of megabytes, each read a trip to
/// memory; asking for every child's entries before the first is used lets those trips
/// overlap instead of following one another (BENCHMARKS.md, "Node rate at the memory's
/// limit"). A hint: it changes no value and no answer; an `index` past the end asks for
/// nothing, and on processors other than x86-64 nothing is asked.
#[inline(always)]
pub(crate) fn prefetch(bytes: &[u8], index: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(byte) = bytes.get(index) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: `byte` is a reference to a live byte of `bytes`, so the pointer is valid
        // for reads; a prefetch does not read it into any value, write memory, or fault (the
        // instruction is a hint even for an invalid address), and SSE, which it needs, is
        // part of every x86-64 processor.
        #[allow(unused_unsafe)]
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(byte).cast::<i8>());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (bytes, index);
}
