//! The argon2 work areas the hashing permits lend: one per permit, allocated at its first use
//! and then reused by every hash that holds the permit. A verification thus never allocates its
//! 19 MiB: the memory of the sign-in's hashing is the permits' areas and no more, whatever the
//! allocator does with freed blocks (glibc's raised mmap threshold kept them in its heaps,
//! which took a flooded process to 854 MiB before the areas were reused; 130 MiB since).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use argon2::Block;

/// The areas not lent out now.
#[derive(Debug, Default)]
pub struct WorkAreas {
    free: Mutex<Vec<Vec<Block>>>,
    /// Areas ever made (each holds its memory for good once used): at most the permits.
    made: AtomicUsize,
}

/// One area, lent until dropped.
#[derive(Debug)]
pub struct WorkArea {
    blocks: Vec<Block>,
    home: Arc<WorkAreas>,
}

impl WorkAreas {
    /// An area from the free ones, or a new empty one (it grows at its first hash).
    pub fn lend(self: &Arc<Self>) -> WorkArea {
        let reused = self.free.lock().ok().and_then(|mut free| free.pop());
        let blocks = reused.unwrap_or_else(|| {
            self.made.fetch_add(1, Ordering::Relaxed);
            Vec::new()
        });
        WorkArea {
            blocks,
            home: Arc::clone(self),
        }
    }

    /// Areas made so far.
    #[cfg(test)]
    pub fn made(&self) -> usize {
        self.made.load(Ordering::Relaxed)
    }

    /// Areas waiting to be lent again.
    #[cfg(test)]
    fn idle(&self) -> usize {
        self.free.lock().map(|free| free.len()).unwrap_or(0)
    }
}

impl WorkArea {
    /// `count` blocks of this area, grown to that size the first time.
    pub fn blocks(&mut self, count: usize) -> &mut [Block] {
        if self.blocks.len() < count {
            self.blocks.resize(count, Block::default());
        }
        &mut self.blocks[..count]
    }
}

impl Drop for WorkArea {
    fn drop(&mut self) {
        let blocks = std::mem::take(&mut self.blocks);
        if let Ok(mut free) = self.home.free.lock() {
            free.push(blocks);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_area_is_reused_not_reallocated() {
        let areas = Arc::new(WorkAreas::default());
        let mut first = areas.lend();
        let address = first.blocks(8).as_ptr();
        drop(first);
        assert_eq!(areas.idle(), 1);
        let mut again = areas.lend();
        assert_eq!(again.blocks(8).as_ptr(), address, "the same memory");
        assert_eq!(areas.idle(), 0);
        assert_eq!(areas.made(), 1);
    }
}
