#pragma once
// A lower bound searched from where the previous search of the same caller ended: callers that ask
// for growing keys (a track's slices in order) pay amortised O(1) a lookup instead of O(log n).
#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace marey {

// The first index i in [0, n) with keyAt(i) >= key (n when none), for keys ascending with i.
// Gallops forward from 'hint' when keyAt(hint) <= key, else searches from the start; leaves the
// answer in 'hint' for the next call. From such a hint the search starts there: of keys equal
// to 'key', the first at or after the hint (a caller that takes them one by one moves on).
// O(log distance from the hint).
template <typename Key, typename KeyAt>
size_t GallopingLowerBound(size_t n, Key key, size_t& hint, KeyAt keyAt) {
    size_t low = 0, high = n;
    if (hint < n && keyAt(hint) <= key) {
        low = hint;
        size_t step = 1;
        while (low + step < n && keyAt(low + step) < key) low += step, step *= 2;
        high = std::min(n, low + step + 1);
    }
    while (low < high) {
        const size_t middle = low + (high - low) / 2;
        if (keyAt(middle) < key)
            low = middle + 1;
        else
            high = middle;
    }
    hint = low;
    return low;
}

}  // namespace marey
