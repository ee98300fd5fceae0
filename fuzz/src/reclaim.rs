//! Memory that a scope leaks on purpose, given back afterwards.
//!
//! The derive's `const` checker reads rules as `'static` data; at run time
//! `Lowered::leak` provides it by leaking. A fuzz target leaking a rule per execution would
//! run out of memory within minutes, so the targets that check rules install [`Reclaim`] as the
//! global allocator: the allocations made inside [`scope`] that are still alive when it
//! returns (exactly what it leaked) are remembered, and [`free_scope`] frees them once nothing
//! uses them any more. Outside a scope the allocator is the system's, with one relaxed load per
//! allocation.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// The global allocator of targets that use [`scope`].
pub struct Reclaim;

/// Allocations remembered per scope (beyond them, memory stays leaked).
const CAPACITY: usize = 1 << 16;

struct Table {
    blocks: [(usize, usize, usize); CAPACITY],
    len: usize,
}

static RECORDING: AtomicBool = AtomicBool::new(false);
static TABLE: Mutex<Table> = Mutex::new(Table {
    blocks: [(0, 0, 0); CAPACITY],
    len: 0,
});

fn table() -> std::sync::MutexGuard<'static, Table> {
    TABLE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

// SAFETY: every block comes from `System` and goes back to it with its own layout; the table
// only remembers addresses (its lock never allocates).
unsafe impl GlobalAlloc for Reclaim {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() && RECORDING.load(Ordering::Relaxed) {
            let mut t = table();
            let n = t.len;
            if n < CAPACITY {
                t.blocks[n] = (p as usize, layout.size(), layout.align());
                t.len += 1;
            }
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if RECORDING.load(Ordering::Relaxed) {
            let mut t = table();
            let n = t.len;
            if let Some(i) = t.blocks[..n].iter().rposition(|b| b.0 == ptr as usize) {
                t.blocks[i] = t.blocks[n - 1];
                t.len -= 1;
            }
        }
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
    }
}

/// Runs `f`, remembering the allocations it leaks (one scope at a time, on one thread: the
/// fuzzer's).
pub fn scope<R>(f: impl FnOnce() -> R) -> R {
    assert!(table().len == 0, "the previous scope was not freed");
    RECORDING.store(true, Ordering::Relaxed);
    let r = f();
    RECORDING.store(false, Ordering::Relaxed);
    r
}

/// Frees what the last [`scope`] leaked.
///
/// # Safety
/// Nothing may use that memory any more.
pub unsafe fn free_scope() {
    let mut t = table();
    let n = t.len;
    for &(p, size, align) in &t.blocks[..n] {
        // SAFETY: allocated by `System` with this layout inside the scope and not freed since
        // (a block freed inside the scope left the table); the caller guarantees it is unused.
        unsafe {
            System.dealloc(p as *mut u8, Layout::from_size_align_unchecked(size, align));
        }
    }
    t.len = 0;
}
