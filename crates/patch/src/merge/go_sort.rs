//! Go's `sort.SliceStable` (sort/zsortfunc.go `stable_func`, `insertionSort_func`,
//! `symMerge_func`, `rotate_func`), step by step: strategicpatch sorts with a comparator that is
//! not a strict weak order when an item is missing from the order list, and the result then
//! depends on the algorithm.

/// Go's `sort.SliceStable`: insertion sort of blocks of 20, then SymMerge of blocks of
/// doubling size (sort/zsortfunc.go `stable_func`), stopping at the first failing `less`.
pub(super) fn slice_stable<T, E>(
    data: &mut [T],
    less: &mut impl FnMut(&T, &T) -> Result<bool, E>,
) -> Result<(), E> {
    let n = data.len();
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        insertion_sort(data, a, b, less)?;
        a = b;
        b += block;
    }
    insertion_sort(data, a, n, less)?;
    while block < n {
        a = 0;
        b = 2 * block;
        while b <= n {
            sym_merge(data, a, a + block, b, less)?;
            a = b;
            b += 2 * block;
        }
        if a + block < n {
            sym_merge(data, a, a + block, n, less)?;
        }
        block *= 2;
    }
    Ok(())
}

fn insertion_sort<T, E>(
    data: &mut [T],
    a: usize,
    b: usize,
    less: &mut impl FnMut(&T, &T) -> Result<bool, E>,
) -> Result<(), E> {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(&data[j], &data[j - 1])? {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
    Ok(())
}

/// Merges the sorted runs `data[a..m]` and `data[m..b]` (Kim and Kutzner's SymMerge).
// Go's names, to read beside sort/zsortfunc.go.
#[allow(clippy::many_single_char_names)]
fn sym_merge<T, E>(
    data: &mut [T],
    a: usize,
    m: usize,
    b: usize,
    less: &mut impl FnMut(&T, &T) -> Result<bool, E>,
) -> Result<(), E> {
    if m - a == 1 {
        // One item on the left: binary search for its place on the right.
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = usize::midpoint(i, j);
            if less(&data[h], &data[a])? {
                i = h + 1;
            } else {
                j = h;
            }
        }
        for k in a..i - 1 {
            data.swap(k, k + 1);
        }
        return Ok(());
    }
    if b - m == 1 {
        // One item on the right: binary search for its place on the left.
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = usize::midpoint(i, j);
            if less(&data[m], &data[h])? {
                j = h;
            } else {
                i = h + 1;
            }
        }
        for k in (i + 1..=m).rev() {
            data.swap(k, k - 1);
        }
        return Ok(());
    }
    let mid = usize::midpoint(a, b);
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = usize::midpoint(start, r);
        if less(&data[p - c], &data[c])? {
            r = c;
        } else {
            start = c + 1;
        }
    }
    let end = n - start;
    if start < m && m < end {
        rotate(data, start, m, end);
    }
    if a < start && start < mid {
        sym_merge(data, a, start, mid, less)?;
    }
    if mid < end && end < b {
        sym_merge(data, mid, end, b, less)?;
    }
    Ok(())
}

/// Swaps the blocks `data[a..m]` and `data[m..b]` by block swaps, as Go's `rotate` does.
#[allow(clippy::many_single_char_names)]
fn rotate<T>(data: &mut [T], a: usize, m: usize, b: usize) {
    let (mut i, mut j) = (m - a, b - m);
    while i != j {
        if i > j {
            swap_range(data, m - i, m, j);
            i -= j;
        } else {
            swap_range(data, m - i, m + j - i, i);
            j -= i;
        }
    }
    swap_range(data, m - i, m, i);
}

fn swap_range<T>(data: &mut [T], a: usize, b: usize, n: usize) {
    for i in 0..n {
        data.swap(a + i, b + i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (no dependency for a few numbers).
    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        *seed >> 33
    }

    #[test]
    fn go_stable_sort_is_a_stable_sort_for_consistent_comparisons() {
        let mut seed = 7;
        for n in [0, 1, 2, 19, 20, 21, 39, 40, 41, 100, 257, 1000] {
            let mut items: Vec<(u64, usize)> = (0..n).map(|i| (lcg(&mut seed) % 10, i)).collect();
            let mut want = items.clone();
            want.sort_by_key(|x| x.0);
            slice_stable(&mut items, &mut |a, b| Ok::<_, ()>(a.0 < b.0)).unwrap();
            assert_eq!(items, want, "n = {n}");
        }
    }

    #[test]
    fn go_stable_sort_with_an_always_true_comparator() {
        // insertionSort moves each item to the front; 3 items: [2 1 0]. Traced by hand from Go's
        // insertionSort_func.
        let mut items = vec![0, 1, 2];
        slice_stable(&mut items, &mut |_, _| Ok::<_, ()>(true)).unwrap();
        assert_eq!(items, [2, 1, 0]);
        // A failing comparison stops the sort with its error.
        let mut items = vec![0, 1];
        assert_eq!(
            slice_stable(&mut items, &mut |_, _| Err::<bool, _>("panic")),
            Err("panic")
        );
        // One item: no comparison at all.
        let mut items = vec![0];
        assert_eq!(
            slice_stable(&mut items, &mut |_, _| Err::<bool, _>("panic")),
            Ok(())
        );
    }
}
