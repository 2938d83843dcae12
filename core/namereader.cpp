#include "namereader.h"
#include "name.h"

namespace bloom {

bool NameReader::next(qsizetype max, QList<QByteArray> &out)
{
    qsizetype taken = 0;
    while (taken < max) {
        // readLine() blocks on stdin until a line or the end; only the end gives no bytes at all
        // (an empty line still has its '\n').
        QByteArray line = mIn->readLine(MaxNameBytes + 2);
        if (line.isEmpty())
            return false;
        ++mLine;
        mBytes += line.size();
        const bool complete = line.endsWith('\n');
        if (!complete && line.size() > MaxNameBytes) {
            mBad.append({mLine, QStringLiteral("longer than %1 bytes").arg(MaxNameBytes)});
            while (!line.isEmpty() && !line.endsWith('\n'))
                line = mIn->readLine(MaxNameBytes + 2);
            continue;
        }
        if (complete)
            line.chop(1);
        if (line.endsWith('\r'))
            line.chop(1);
        if (auto s = validateName(line); !s) {
            mBad.append({mLine, s.error().message});
            continue;
        }
        out.append(std::move(line));
        ++taken;
    }
    return true;
}

} // namespace bloom
