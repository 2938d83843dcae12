#include "model/fillsnapshot.h"

#include "model/fprmodel.h"

#include <algorithm>

namespace bloom {

quint64 FillSnapshot::totalSetBits() const
{
    quint64 sum = 0;
    for (quint32 s : setBits)
        sum += s;
    return sum;
}

double FillSnapshot::meanFill() const
{
    return setBits.empty() ? 0.0 : double(totalSetBits()) / (double(setBits.size()) * geometry.chunkBits());
}

double FillSnapshot::estimatedFpr() const
{
    return fpr::fromFill(setBits, geometry.chunkBits(), geometry.k());
}

double FillSnapshot::estimatedNames() const
{
    return fpr::estimateNames(setBits, geometry.chunkBits(), geometry.k());
}

quint32 FillSnapshot::minSetBits() const
{
    return setBits.empty() ? 0 : *std::min_element(setBits.begin(), setBits.end());
}

quint32 FillSnapshot::maxSetBits() const
{
    return setBits.empty() ? 0 : *std::max_element(setBits.begin(), setBits.end());
}

} // namespace bloom
