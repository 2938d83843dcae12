#pragma once

#include <cstddef>
#include <cstdint>

namespace bloom {

/**
 * A zeroed byte array for a filter's bits (hundreds of MiB), straight from the kernel: mmap gives zero
 * pages without a memset, and madvise(MADV_HUGEPAGE) lets a 256 MiB array fault in 128 huge pages
 * instead of 65,536 small ones (perf on the rebuild: a tenth of its time went to memset and page
 * faults of a std::vector). Move-only.
 */
class BitArray {
public:
    BitArray() = default;
    explicit BitArray(std::size_t bytes) { reset(bytes); }
    ~BitArray() { release(); }
    BitArray(const BitArray &) = delete;
    BitArray &operator=(const BitArray &) = delete;
    BitArray(BitArray &&other) noexcept
        : mData(other.mData)
        , mSize(other.mSize)
    {
        other.mData = nullptr;
        other.mSize = 0;
    }
    BitArray &operator=(BitArray &&other) noexcept;

    /** Zeroed anew at `bytes` (0: released). */
    void reset(std::size_t bytes = 0);
    /** Faults bytes [from, to) in ahead of their first write (the zeroing of fresh pages is then paid
     *  by the caller's thread, e.g. while another waits on the network); the contents stay zero. */
    void populate(std::size_t from, std::size_t to);
    std::uint8_t *data() { return mData; }
    const std::uint8_t *data() const { return mData; }
    std::size_t size() const { return mSize; }
    bool empty() const { return mSize == 0; }
    std::uint8_t &operator[](std::size_t i) { return mData[i]; }
    std::uint8_t operator[](std::size_t i) const { return mData[i]; }

private:
    void release();
    std::uint8_t *mData = nullptr;
    std::size_t mSize = 0;
};

} // namespace bloom
