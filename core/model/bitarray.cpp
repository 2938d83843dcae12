#include "model/bitarray.h"

#include <algorithm>
#include <atomic>
#include <new>
#include <utility>

#include <sys/mman.h>

namespace bloom {

BitArray &BitArray::operator=(BitArray &&other) noexcept
{
    if (this != &other) {
        release();
        mData = std::exchange(other.mData, nullptr);
        mSize = std::exchange(other.mSize, 0);
    }
    return *this;
}

void BitArray::reset(std::size_t bytes)
{
    release();
    if (bytes == 0)
        return;
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        throw std::bad_alloc();
    (void)madvise(p, bytes, MADV_HUGEPAGE); // a hint: without transparent huge pages, small pages
    mData = static_cast<std::uint8_t *>(p);
    mSize = bytes;
}

void BitArray::populate(std::size_t from, std::size_t to)
{
    constexpr std::size_t Page = 4096;
    from = from / Page * Page;
    to = std::min(mSize, (to + Page - 1) / Page * Page);
    if (from >= to)
        return;
#ifdef MADV_POPULATE_WRITE
    if (madvise(mData + from, to - from, MADV_POPULATE_WRITE) == 0)
        return;
#endif
    // Kernels before 5.14: a write to each page faults it in.
    for (std::size_t i = from; i < to; i += Page)
        std::atomic_ref<std::uint8_t>(mData[i]).fetch_or(0, std::memory_order_relaxed);
}

void BitArray::release()
{
    if (mData)
        munmap(mData, mSize);
    mData = nullptr;
    mSize = 0;
}

} // namespace bloom
