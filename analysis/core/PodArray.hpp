#pragma once
// A growable array of trivially copyable values that lives in its own memory mapping once it
// is large: growth is an mremap (page tables move, bytes are not copied) and release gives the
// pages straight back to the system. Loading relies on both to keep peak memory near the size
// of what it keeps.
//
// A fresh page of a mapping costs a fault when it is first written: a trap into the kernel for
// every 4 KiB, and in some virtual machines a trip to the hypervisor too (10 µs a page on one
// of ours, where populating 256 KiB at once costs 2 µs a page). An array filled by push_back
// therefore populates its next pages in batches of a 16th of what it holds (up to 256 KiB),
// and writers that fill a resized array in order call Populate ahead of themselves.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>

#include <sys/mman.h>

namespace marey {

template <typename T>
class PodArray {
    static_assert(std::is_trivially_copyable_v<T>, "PodArray holds plain values only");

public:
    PodArray() = default;
    PodArray(const PodArray&) = delete;
    PodArray& operator=(const PodArray&) = delete;
    PodArray(PodArray&& other) noexcept { Swap(other); }
    PodArray& operator=(PodArray&& other) noexcept {
        if (this != &other) {
            Release();
            Swap(other);
        }
        return *this;
    }
    ~PodArray() { Release(); }

    // Whether 'count' values are enough for the array to take over a mapping (AdoptFileMapping).
    static bool CanAdopt(size_t count) { return IsMapped(count); }
    // An array of the 'count' values at 'data': the start of 'regionBytes' (whole pages, at least
    // what the values take) of a private, writable mapping of a file, such as the index cache,
    // whose page cache then serves the values without a copy. The array unmaps the region when
    // released and moves to memory of its own before it grows (a file mapping cannot grow past
    // its file). Its values change only in the process (copy on write). Needs CanAdopt(count).
    static PodArray AdoptFileMapping(T* data, size_t count, size_t regionBytes) {
        PodArray array;
        array.m_data = data;
        array.m_size = array.m_ready = count;
        array.m_capacity = regionBytes / sizeof(T);
        array.m_fileBacked = true;
        return array;
    }

    size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    size_t capacity() const { return m_capacity; }
    T* data() { return m_data; }
    const T* data() const { return m_data; }
    T& operator[](size_t i) { return m_data[i]; }
    const T& operator[](size_t i) const { return m_data[i]; }
    T* begin() { return m_data; }
    T* end() { return m_data + m_size; }
    const T* begin() const { return m_data; }
    const T* end() const { return m_data + m_size; }
    T& back() { return m_data[m_size - 1]; }
    const T& back() const { return m_data[m_size - 1]; }

    void push_back(const T& value) {
        if (m_size >= m_ready) Grow(m_size + 1);
        m_data[m_size++] = value;
    }
    // Sets the size; new elements are zero-initialised only where fresh pages are (mmap),
    // so callers write them before reading.
    void resize(size_t size) {
        if (size > m_capacity) Grow(size);
        m_size = size;
        m_ready = std::max(m_ready, size);
    }
    void reserve(size_t capacity) {
        if (capacity > m_capacity) GrowExactly(capacity);
    }
    void clear() { m_size = 0; }
    // The elements in [from, to) are about to be written: their fresh pages are made at once,
    // one system call instead of a fault per page.
    void Populate(size_t from, size_t to) {
        if (!m_data || !IsMapped(m_capacity) || from >= to) return;
        to = std::min(to, m_capacity);
        const uintptr_t begin =
            reinterpret_cast<uintptr_t>(m_data + from) / kPageBytes * kPageBytes;
        const uintptr_t end =
            (reinterpret_cast<uintptr_t>(m_data + to) + kPageBytes - 1) / kPageBytes * kPageBytes;
        if (end > begin) PopulatePages(begin, end - begin);
    }
    // Drops elements past 'size' and gives their whole pages back to the system at once, so
    // that an array consumed from its end shrinks in memory as it goes.
    void TruncateAndRelease(size_t size) {
        if (size >= m_size) return;
        m_size = size;
        if (!m_data || !IsMapped(m_capacity)) return;
        const size_t keepBytes = (size * sizeof(T) + kPageBytes - 1) / kPageBytes * kPageBytes;
        const size_t heldBytes = BytesFor(m_capacity);
        if (heldBytes - keepBytes < 64 * kPageBytes) return;  // not worth a system call yet
        if (keepBytes == 0) {
            Release();
            return;
        }
        munmap(reinterpret_cast<char*>(m_data) + keepBytes, heldBytes - keepBytes);
        m_capacity = keepBytes / sizeof(T);
        m_ready = std::min(m_ready, m_capacity);
        if (!IsMapped(m_capacity)) {
            // Too small now to count as mapped: move it to the heap so Release() stays right.
            T* heap = static_cast<T*>(std::malloc(m_capacity * sizeof(T)));
            if (!heap) throw std::bad_alloc();
            std::memcpy(heap, m_data, m_size * sizeof(T));
            munmap(m_data, keepBytes);
            m_data = heap;
            m_fileBacked = false;
            m_ready = m_capacity;
        }
    }
    // The values in [from, to) will not be read again: the whole pages inside that range go back
    // to the system now, while the array keeps its size (those values read as zero afterwards).
    // Threads may discard disjoint ranges of one array at the same time.
    void DiscardPages(size_t from, size_t to) {
        if (!m_data || !IsMapped(m_capacity) || from >= to) return;
        const uintptr_t begin =
            (reinterpret_cast<uintptr_t>(m_data + from) + kPageBytes - 1) / kPageBytes * kPageBytes;
        const uintptr_t end = reinterpret_cast<uintptr_t>(m_data + to) / kPageBytes * kPageBytes;
        if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
    }
    // Gives back the pages populated ahead of the last value, once the array is complete.
    void ReleaseSpare() {
        if (!m_data || !IsMapped(m_capacity)) return;
        if (m_ready > m_size && (m_ready - m_size) * sizeof(T) >= kPageBytes)
            DiscardPages(m_size, m_ready);
        m_ready = m_size;
    }
    // Gives the memory back now.
    void Release() {
        if (m_data) {
            if (IsMapped(m_capacity)) {
                munmap(m_data, BytesFor(m_capacity));
            } else {
                std::free(m_data);
            }
        }
        m_data = nullptr;
        m_size = m_capacity = m_ready = 0;
        m_fileBacked = false;
    }

private:
    static constexpr size_t kMapThresholdBytes = 16 * 1024;
    static constexpr size_t kFirstMappingBytes = 1024 * 1024;
    static constexpr size_t kPageBytes = 4096;
    static constexpr size_t kMostPopulatedAhead = 256 * 1024;

    static size_t BytesFor(size_t capacity) {
        const size_t bytes = capacity * sizeof(T);
        return IsMapped(capacity) ? (bytes + kPageBytes - 1) / kPageBytes * kPageBytes : bytes;
    }
    static bool IsMapped(size_t capacity) { return capacity * sizeof(T) >= kMapThresholdBytes; }

    // Out of line, so that push_back inlines to a compare and a store.
    [[gnu::noinline]] void Grow(size_t needed) {
        if (needed <= m_capacity) {
            PopulateAhead();
            return;
        }
        // A mapped array grows fourfold up to 64 MiB: pages it never writes cost nothing, and each
        // mremap flushes the TLB of every core running the process.
        const bool quadruple = IsMapped(m_capacity) && m_capacity * sizeof(T) < (size_t{64} << 20);
        size_t capacity = m_capacity < 16 ? 16
                          : quadruple     ? m_capacity * 4
                                          : m_capacity + m_capacity / 2;
        if (capacity < needed) capacity = needed;
        // The first mapping reserves 1 MiB of address space at once: the arrays of a chunk being
        // decoded then rarely grow again, and each growth of a mapping is a system call.
        if (IsMapped(capacity) && !IsMapped(m_capacity))
            capacity = std::max(capacity, kFirstMappingBytes / sizeof(T));
        GrowExactly(capacity);
        if (IsMapped(m_capacity)) PopulateAhead();
    }

    // Moves the limit of push_back's fast path past the next batch of pages, populating them
    // when the batch is more than a page (an array of under 128 KiB takes its faults one by one).
    void PopulateAhead() {
        const uintptr_t base = reinterpret_cast<uintptr_t>(m_data);
        const uintptr_t usedEnd =
            (base + m_size * sizeof(T) + kPageBytes - 1) / kPageBytes * kPageBytes;
        const size_t batch = std::clamp(m_size * sizeof(T) / 16 / kPageBytes * kPageBytes,
                                        kPageBytes, kMostPopulatedAhead);
        const uintptr_t readyEnd = std::min(usedEnd + batch, base + BytesFor(m_capacity));
        const uintptr_t populatedEnd = std::max(
            usedEnd, (base + m_ready * sizeof(T) + kPageBytes - 1) / kPageBytes * kPageBytes);
        if (readyEnd > populatedEnd + kPageBytes)
            PopulatePages(populatedEnd, readyEnd - populatedEnd);
        m_ready = std::min(m_capacity, std::max(m_size + 1, (readyEnd - base) / sizeof(T)));
    }

    static void PopulatePages(uintptr_t begin, size_t bytes) {
        // Fails on kernels before 5.14: the pages then fault one by one as before.
        madvise(reinterpret_cast<void*>(begin), bytes, kPopulateWrite);
    }
#ifdef MADV_POPULATE_WRITE
    static constexpr int kPopulateWrite = MADV_POPULATE_WRITE;
#else
    static constexpr int kPopulateWrite = 23;
#endif

    void GrowExactly(size_t capacity) {
        if (IsMapped(capacity)) {
            const size_t newBytes = BytesFor(capacity);
            void* memory;
            if (m_data && IsMapped(m_capacity) && !m_fileBacked) {
                memory = mremap(m_data, BytesFor(m_capacity), newBytes, MREMAP_MAYMOVE);
            } else {
                memory = mmap(nullptr, newBytes, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                if (memory != MAP_FAILED && m_data) {
                    // The values move from the heap or a file's mapping: their pages are made at
                    // once, not faulted one by one.
                    PopulatePages(reinterpret_cast<uintptr_t>(memory),
                                  (m_size * sizeof(T) + kPageBytes - 1) / kPageBytes * kPageBytes);
                    std::memcpy(memory, m_data, m_size * sizeof(T));
                    if (m_fileBacked)
                        munmap(m_data, BytesFor(m_capacity));
                    else
                        std::free(m_data);
                }
            }
            if (memory == MAP_FAILED) throw std::bad_alloc();
            // The heap's or the file's pages are not the new mapping's.
            if (!IsMapped(m_capacity) || m_fileBacked) m_ready = m_size;
            m_data = static_cast<T*>(memory);
            m_capacity = newBytes / sizeof(T);
            m_fileBacked = false;
        } else {
            void* memory = std::realloc(m_data, capacity * sizeof(T));
            if (!memory) throw std::bad_alloc();
            m_data = static_cast<T*>(memory);
            m_capacity = m_ready = capacity;
        }
    }

    void Swap(PodArray& other) noexcept {
        std::swap(m_data, other.m_data);
        std::swap(m_size, other.m_size);
        std::swap(m_capacity, other.m_capacity);
        std::swap(m_ready, other.m_ready);
        std::swap(m_fileBacked, other.m_fileBacked);
    }

    T* m_data = nullptr;
    size_t m_size = 0;
    size_t m_capacity = 0;
    size_t m_ready = 0;  // push_back's fast path runs below this, at most the capacity: the end of
                         // the pages populated ahead or of a resize, or the heap block's end
    bool m_fileBacked = false;  // the pages are a file's private mapping (AdoptFileMapping)
};

}  // namespace marey
