//! Work spread over every core whose results are taken in order as they come: a whole
//! game's files opened, or its clips decoded again, without holding every result.

use std::collections::BTreeMap;
use std::sync::Mutex;

use rayon::prelude::*;

/// Runs `work` on each of `items` on every core; each call hands its results, numbered, to
/// the `emit` it is given. `take` receives them on the calling thread in their numbers'
/// order (0, 1, 2, …) as soon as each and those before it are done, so what is held at once
/// is the work in flight and the few results finished ahead of an earlier one. Called from
/// one of rayon's threads (which must not wait on the pool), every result is gathered
/// first, then taken in order.
pub(super) fn par_in_order<I: Send, T: Send>(
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
    let (send, receive) = std::sync::mpsc::channel::<(usize, T)>();
    let work = &work;
    std::thread::scope(|scope| {
        scope.spawn(move || {
            items.par_bridge().for_each_with(send, |send, item| {
                // The receiver outlives every sender; a failed send only means it stopped.
                work(item, &mut |i, t| {
                    let _ = send.send((i, t));
                });
            });
        });
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
