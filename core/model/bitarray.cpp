#include "model/bitarray.h"

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

void BitArray::release()
{
    if (mData)
        munmap(mData, mSize);
    mData = nullptr;
    mSize = 0;
}

} // namespace bloom
