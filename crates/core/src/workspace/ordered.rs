//! Work spread over every core whose results are taken in order as they come: a whole
//! game's files opened, or its clips decoded again, without holding every result.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Condvar, Mutex};

use rayon::prelude::*;

/// How many items past the earliest unfinished one a core may start: a slow item (a large
/// LZMA bundle, a file on a cold disk) must not let the other cores run far ahead and fill
/// memory with finished results that wait for it to be taken.
const AHEAD_PER_CORE: usize = 16;

/// How many finished results a thread may leave waiting for `take`. Without a bound, a
/// `take` slower than the work gathered them all: `unity` on a whole game, saving each
/// controller as its text was made on two cores, held 15 MB of controllers' texts waiting
/// on 1,000 copies of the shared files (none on 100).
const WAITING_PER_THREAD: usize = 1;

/// Runs `work` on each of `items` on `threads` threads (one a core, or more for work that
/// also waits for the disk); each call hands its results, numbered, to the `emit` it is
/// given. `take` receives them on the calling thread in their numbers'
/// order (0, 1, 2, …) as soon as each and those before it are done, so what is held at once
/// is the work in flight and the results finished ahead of an earlier one: no item is
/// started more than [`AHEAD_PER_CORE`] items a thread past the earliest unfinished one, and
/// no more than [`WAITING_PER_THREAD`] results a thread wait for a `take` that is slower than
/// the work (one that writes each result to disk): a thread with a result to hand over
/// waits for `take` to catch up.
/// Called from one of rayon's threads (which must not wait on the pool), every result is
/// gathered first, then taken in order.
pub(super) fn par_in_order<I: Send, T: Send>(
    threads: usize,
    items: impl Iterator<Item = I> + Send,
    work: impl Fn(I, &mut dyn FnMut(usize, T)) + Sync,
    mut take: impl FnMut(usize, T),
) {
    if rayon::current_thread_index().is_some() {
        let all = Mutex::new(Vec::new());
        items.par_bridge().for_each(|item| {
            let mut mine = Vec::new();
            work(item, &mut |i, t| mine.push((i, t)));
            all.lock().unwrap_or_else(|e| e.into_inner()).extend(mine);
        });
        let mut all = all.into_inner().unwrap_or_else(|e| e.into_inner());
        all.sort_by_key(|(i, _)| *i);
        for (i, t) in all {
            take(i, t);
        }
        return;
    }
    let threads = threads.max(1);
    // A thread whose result finds the channel full waits in `send` until `take` has caught
    // up; `take` only ever waits for results, so every wait ends.
    let (send, receive) = std::sync::mpsc::sync_channel::<(usize, T)>(WAITING_PER_THREAD * threads);
    let work = &work;
    let window = &Window::new(AHEAD_PER_CORE * threads);
    // Plain threads, not rayon's: one waiting for the window must not be a rayon worker,
    // which could be holding the earliest item's own parallel work (a bundle's blocks
    // decompressed on every core) when it waits.
    let items = &Mutex::new(items.enumerate());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let send = send.clone();
            scope.spawn(move || {
                loop {
                    // Items are taken in order, so the earliest unfinished one is always
                    // being worked on and the window always moves.
                    let next = items.lock().unwrap_or_else(|e| e.into_inner()).next();
                    let Some((n, item)) = next else {
                        break;
                    };
                    let _inside = window.enter(n);
                    // The receiver outlives every sender; a failed send only means it
                    // stopped.
                    work(item, &mut |i, t| {
                        let _ = send.send((i, t));
                    });
                }
            });
        }
        drop(send);
        let mut ahead: BTreeMap<usize, T> = BTreeMap::new();
        let mut next = 0;
        for (i, t) in receive {
            ahead.insert(i, t);
            while let Some(t) = ahead.remove(&next) {
                take(next, t);
                next += 1;
            }
        }
    });
}

/// The items that may be worked on: those less than `size` past the earliest unfinished one.
struct Window {
    /// The earliest unfinished item, and the items after it that are finished.
    state: Mutex<(usize, BTreeSet<usize>)>,
    moved: Condvar,
    size: usize,
}

impl Window {
    fn new(size: usize) -> Window {
        Window {
            state: Mutex::new((0, BTreeSet::new())),
            moved: Condvar::new(),
            size,
        }
    }

    /// Waits until item `n` may be worked on; it is finished when the guard drops (even
    /// when its work panics, so that no other item waits for it forever).
    fn enter(&self, n: usize) -> Inside<'_> {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while n >= state.0 + self.size {
            state = self.moved.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        Inside { window: self, n }
    }
}

/// An item being worked on.
struct Inside<'a> {
    window: &'a Window,
    n: usize,
}

impl Drop for Inside<'_> {
    fn drop(&mut self) {
        let window = self.window;
        let mut state = window.state.lock().unwrap_or_else(|e| e.into_inner());
        state.1.insert(self.n);
        let mut moved = false;
        loop {
            let first = state.0;
            if !state.1.remove(&first) {
                break;
            }
            state.0 += 1;
            moved = true;
        }
        if moved {
            window.moved.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    /// A slow first item holds the other cores within the window: none starts an item more
    /// than the window past it, and every result is still taken, in order.
    #[test]
    fn a_slow_item_holds_the_others_within_the_window() {
        let first_done = AtomicBool::new(false);
        let furthest = AtomicUsize::new(0);
        let mut taken = Vec::new();
        // More threads than this machine may have cores, as for work that waits for disk.
        let threads = 3;
        par_in_order(
            threads,
            0..500usize,
            |n, emit| {
                if n == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(200));
                    first_done.store(true, Ordering::SeqCst);
                } else if !first_done.load(Ordering::SeqCst) {
                    furthest.fetch_max(n, Ordering::SeqCst);
                }
                emit(n, n * 2);
            },
            |i, t| taken.push((i, t)),
        );
        assert_eq!(taken, (0..500).map(|n| (n, n * 2)).collect::<Vec<_>>());
        let window = AHEAD_PER_CORE * threads;
        let furthest = furthest.load(Ordering::SeqCst);
        assert!(
            furthest < window,
            "item {furthest} started, window {window}"
        );
        assert!(furthest > 0, "the other threads went on within the window");
    }

    /// A `take` slower than the work holds the threads back: the results handed over and
    /// not yet taken stay within the channel's bound and the window, where an unbounded
    /// channel gathered nearly all 300 (the work is instant, each take a millisecond).
    #[test]
    fn a_slow_take_holds_the_threads_back() {
        let handed = AtomicUsize::new(0);
        let mut taken = 0;
        let mut most_waiting = 0;
        let threads = 3;
        par_in_order(
            threads,
            0..300usize,
            |n, emit| {
                emit(n, n);
                handed.fetch_add(1, Ordering::SeqCst);
            },
            |i, t| {
                assert_eq!((i, t), (taken, taken));
                std::thread::sleep(std::time::Duration::from_millis(1));
                taken += 1;
                most_waiting = most_waiting.max(handed.load(Ordering::SeqCst) - taken);
            },
        );
        assert_eq!(taken, 300);
        // In the channel, one being handed over by each thread, and at most a window of
        // results received ahead of an earlier one that a thread has yet to hand over.
        let bound = (WAITING_PER_THREAD + 1 + AHEAD_PER_CORE) * threads;
        assert!(
            most_waiting <= bound,
            "{most_waiting} waiting, bound {bound}"
        );
    }
}
