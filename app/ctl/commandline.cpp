#include "commandline.h"
#include "context.h"

#include <QHash>

namespace bloom::cli {

namespace {

constexpr int HelpWidth = 100;
constexpr int HelpColumn = 24;

/** `text` wrapped at HelpWidth, every line after the first indented by `indent` (the first by `first`). */
QString wrap(const QString &text, int first, int indent)
{
    QString out;
    const QStringList paragraphs = text.split(QLatin1Char('\n'));
    for (qsizetype p = 0; p < paragraphs.size(); ++p) {
        int column = p == 0 ? first : indent;
        if (p > 0)
            out += QLatin1Char('\n') + QString(indent, QLatin1Char(' '));
        bool lineStart = true;
        for (const QString &word : paragraphs[p].split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            if (!lineStart && column + 1 + word.size() > HelpWidth) {
                out += QLatin1Char('\n') + QString(indent, QLatin1Char(' '));
                column = indent;
                lineStart = true;
            }
            if (!lineStart) {
                out += QLatin1Char(' ');
                ++column;
            }
            out += word;
            column += int(word.size());
            lineStart = false;
        }
    }
    return out;
}

QString optionLabel(const OptionSpec &o)
{
    QString label = o.shortName ? QStringLiteral("-%1, ").arg(QLatin1Char(o.shortName)) : QString();
    label += QStringLiteral("--") + QLatin1String(o.name);
    if (o.valued())
        label += QLatin1Char(' ') + QLatin1String(o.valueName);
    if (o.repeatable)
        label += QStringLiteral("...");
    return label;
}

QString optionLines(const QList<OptionSpec> &options)
{
    QString out;
    for (const OptionSpec &o : options) {
        QString label = QStringLiteral("  ") + optionLabel(o);
        if (label.size() + 2 > HelpColumn)
            label += QLatin1Char('\n') + QString(HelpColumn, QLatin1Char(' '));
        else
            label = label.leftJustified(HelpColumn);
        out += label + wrap(QLatin1String(o.help), HelpColumn, HelpColumn) + QLatin1Char('\n');
    }
    return out;
}

/** Every option any command declares, by long name and by short alias: the parser reads options before the
 *  command word with it (and every declaration of a name agrees on whether it takes a value). */
struct OptionIndex {
    QHash<QString, OptionSpec> byName;
    QHash<QChar, OptionSpec> byShort;
    OptionIndex()
    {
        const auto add = [this](const OptionSpec &o) {
            byName.insert(QLatin1String(o.name), o);
            if (o.shortName)
                byShort.insert(QLatin1Char(o.shortName), o);
        };
        for (const OptionSpec &o : globalOptions())
            add(o);
        for (const CommandSpec &c : commandTable())
            for (const OptionSpec &o : c.options)
                add(o);
    }
};

const OptionIndex &optionIndex()
{
    static const OptionIndex index;
    return index;
}

const OptionSpec *declared(const CommandSpec *command, const QString &name)
{
    for (const OptionSpec &o : globalOptions())
        if (QLatin1String(o.name) == name)
            return &o;
    if (command)
        for (const OptionSpec &o : command->options)
            if (QLatin1String(o.name) == name)
                return &o;
    return nullptr;
}

} // namespace

Args parseArgs(const QList<QByteArray> &raw)
{
    Args a;
    const CommandSpec *command = nullptr;
    QStringList spelledBeforeCommand; // options met before the command word, checked once it is known
    const auto setError = [&a](const QString &message) {
        if (a.error.isEmpty())
            a.error = message;
    };
    const auto notOfCommand = [&a, &setError](const QString &name) {
        setError(QStringLiteral("option --%1 is not an option of %2").arg(name, a.command));
        a.errorHint = QStringLiteral("Try 'bloomctl help %1'.").arg(a.command);
    };
    bool optionsEnded = false;
    for (qsizetype i = 0; i < raw.size(); ++i) {
        // Decoded as QCoreApplication::arguments() decodes them; the positional words keep their bytes too.
        const QString w = QString::fromLocal8Bit(raw[i]);
        const bool isOption = !optionsEnded && w.startsWith(QLatin1Char('-')) && w != QLatin1String("-");
        if (!isOption) {
            if (a.positional.isEmpty()) {
                a.command = w;
                command = findCommand(w);
                if (!command)
                    setError(QStringLiteral("unknown command '%1'").arg(w));
                for (const QString &name : std::as_const(spelledBeforeCommand))
                    if (command && !declared(command, name))
                        notOfCommand(name);
            }
            a.positional << w;
            a.positionalBytes << raw[i];
            continue;
        }
        if (w == QLatin1String("--")) {
            optionsEnded = true;
            continue;
        }
        QString name;
        QString value;
        bool inlineValue = false;
        const OptionSpec *spec = nullptr;
        if (w.startsWith(QLatin1String("--"))) {
            name = w.mid(2);
            if (const qsizetype eq = name.indexOf(QLatin1Char('=')); eq >= 0) {
                value = name.mid(eq + 1);
                name = name.left(eq);
                inlineValue = true;
            }
            const auto it = optionIndex().byName.constFind(name);
            if (it == optionIndex().byName.constEnd()) {
                setError(QStringLiteral("unknown option --%1").arg(name));
                continue;
            }
            spec = &*it;
        } else {
            // -w VALUE, -wVALUE, -h: a declared one-letter alias, nothing else.
            const QChar letter = w.at(1);
            const auto it = optionIndex().byShort.constFind(letter);
            if (it == optionIndex().byShort.constEnd() || (!it->valued() && w.size() > 2)) {
                setError(QStringLiteral("unknown option %1")
                             .arg(w.left(it == optionIndex().byShort.constEnd() ? 2 : w.size())));
                continue;
            }
            spec = &*it;
            name = QLatin1String(spec->name);
            if (w.size() > 2) {
                value = w.mid(w.at(2) == QLatin1Char('=') ? 3 : 2);
                inlineValue = true;
            }
            if (command && !declared(command, name)) {
                setError(QStringLiteral("unknown option -%1").arg(letter));
                a.errorHint = QStringLiteral("Try 'bloomctl help %1'.").arg(a.command);
                if (spec->valued() && !inlineValue)
                    ++i;
                continue;
            }
        }
        if (spec->valued() && !inlineValue) {
            if (i + 1 >= raw.size()) {
                setError(spec->shortName ? QStringLiteral("option -%1/--%2 needs a value")
                                               .arg(QString(QLatin1Char(spec->shortName)), name)
                                         : QStringLiteral("option --%1 needs a value").arg(name));
                break;
            }
            value = QString::fromLocal8Bit(raw[++i]);
        } else if (!spec->valued() && inlineValue) {
            setError(QStringLiteral("option --%1 takes no value").arg(name));
            continue;
        }
        if (command) {
            if (!declared(command, name)) {
                notOfCommand(name);
                continue;
            }
        } else {
            spelledBeforeCommand << name;
        }
        if (spec->valued())
            a.options[name].append(value);
        else
            a.flags.insert(name);
    }
    if (!command && a.positional.isEmpty())
        for (const QString &name : std::as_const(spelledBeforeCommand))
            if (!declared(nullptr, name))
                setError(QStringLiteral("option --%1 needs a command").arg(name));
    return a;
}

QString overviewHelp()
{
    QString out = QStringLiteral("Usage: bloomctl [GLOBAL OPTIONS] COMMAND [OPTIONS] [ARGUMENTS]\n"
                                 "  or:  bloomctl help COMMAND\n"
                                 "  or:  bloomctl COMMAND --help\n\n");
    out += QLatin1String(helpTexts().intro);
    out += QStringLiteral("\nCommands:\n");
    for (const CommandSpec &c : commandTable()) {
        QString label = QStringLiteral("  ") + QLatin1String(c.name);
        if (*c.synopsis)
            label += QLatin1Char(' ') + QLatin1String(c.synopsis);
        if (label.size() + 2 > HelpColumn)
            label += QLatin1Char('\n') + QString(HelpColumn, QLatin1Char(' '));
        else
            label = label.leftJustified(HelpColumn);
        out += label + wrap(QLatin1String(c.summary), HelpColumn, HelpColumn) + QLatin1Char('\n');
    }
    out += QLatin1Char('\n') + QLatin1String(helpTexts().redis);
    out += QStringLiteral("\nGlobal options (every command takes them):\n") + optionLines(globalOptions());
    out +=
        QLatin1Char('\n') + QLatin1String(helpTexts().rules) + QLatin1Char('\n') + QLatin1String(helpTexts().exitCodes);
    return out;
}

QString commandHelp(const CommandSpec &c)
{
    QString out = QStringLiteral("Usage: bloomctl [GLOBAL OPTIONS] %1").arg(QLatin1String(c.name));
    if (!c.options.isEmpty())
        out += QStringLiteral(" [OPTIONS]");
    if (*c.synopsis)
        out += QLatin1Char(' ') + QLatin1String(c.synopsis);
    out += QStringLiteral("\n\n") + wrap(QLatin1String(c.summary), 0, 0) + QStringLiteral(".\n");
    if (*c.details)
        out += QLatin1Char('\n') + wrap(QLatin1String(c.details), 0, 0) + QLatin1Char('\n');
    if (!c.options.isEmpty())
        out += QStringLiteral("\nOptions:\n") + optionLines(c.options);
    out += QStringLiteral("\nGlobal options:\n") + optionLines(globalOptions());
    out += QStringLiteral("\nExit codes and output: bloomctl --help.\n");
    return out;
}

QString fullHelp()
{
    QString out = overviewHelp();
    for (const CommandSpec &c : commandTable()) {
        out += QStringLiteral("\nCommand %1:\n").arg(QLatin1String(c.name));
        QString usage = QStringLiteral("  bloomctl %1").arg(QLatin1String(c.name));
        for (const OptionSpec &o : c.options)
            usage += QStringLiteral(" [%1]").arg(optionLabel(o));
        if (*c.synopsis)
            usage += QLatin1Char(' ') + QLatin1String(c.synopsis);
        out += wrap(usage, 0, 8) + QLatin1Char('\n');
        QString text = QLatin1String(c.summary) + QLatin1Char('.');
        if (*c.details)
            text += QLatin1Char('\n') + QLatin1String(c.details);
        out += QStringLiteral("    ") + wrap(text, 4, 4) + QLatin1Char('\n');
        if (!c.options.isEmpty())
            out += optionLines(c.options);
    }
    return out;
}

} // namespace bloom::cli
