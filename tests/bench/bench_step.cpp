// The step-through's cost a keystroke, on the GUI thread, as the name grows to the field's limit.
// Real widgets (QT_QPA_PLATFORM=offscreen) on a real filter: each keystroke is one more character,
// timed from the key to the view showing the database's answer for it (the worker's round trip
// included, the debounce not). Run:
//   cmake --build build --target bench_step && QT_QPA_PLATFORM=offscreen build/tests/bench/bench_step
#include "local/localcluster.h"
#include "postgres/filtersql.h"
#include "session/filtersession.h"
#include "step/stepthroughview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace bloom;

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    LocalCluster cluster;
    if (auto s = cluster.start(); !s) {
        std::fprintf(stderr, "%s\n", qPrintable(s.error().toString()));
        return 1;
    }
    (void)cluster.createDatabase(QStringLiteral("app"));
    (void)cluster.exec(QStringLiteral("app"), sqlResource(QStringLiteral("reference.sql")));
    FilterSession session;
    session.open(*ConnectionSpec::parse(cluster.connectionString(QStringLiteral("app"))), FilterRef{}, true);
    QSignalSpy opened(&session, &FilterSession::opened);
    if (!opened.wait(20000))
        return 1;
    StepThroughView view;
    view.setSession(&session);
    view.resize(1100, 760);
    view.show();
    view.setStep(StepThroughView::Verdict);
    auto *field = view.findChild<QLineEdit *>(QStringLiteral("stepName"));
    std::printf("step-through, one keystroke at a name of N characters (GUI thread; p50 / max of 20 keys)\n");
    std::printf("%10s %12s %12s %14s\n", "N", "key p50 ms", "key max ms", "answer p50 ms");
    const int limit = field->maxLength();
    for (int n : {10, 100, 1000, 2000, 4000, 8000, 16000, 32000, limit - 21}) {
        view.setName(QString(n, QLatin1Char('a')));
        QSignalSpy ready(&view, &StepThroughView::resultReady);
        ready.wait(5000);
        std::vector<double> keys, answers;
        for (int i = 0; i < 20; ++i) {
            QSignalSpy answered(&view, &StepThroughView::resultReady);
            QElapsedTimer t;
            t.start();
            QTest::keyClick(field, Qt::Key_B); // the edit, the offline steps, the render
            keys.push_back(double(t.nsecsElapsed()) / 1e6);
            if (!answered.wait(10000))
                return 2;
            answers.push_back(double(t.nsecsElapsed()) / 1e6 - 120.0); // key to answer, minus the debounce
        }
        std::sort(keys.begin(), keys.end());
        std::sort(answers.begin(), answers.end());
        std::printf("%10d %12.2f %12.2f %14.2f\n", int(field->text().size()), keys[keys.size() / 2], keys.back(),
                    answers[answers.size() / 2]);
        std::fflush(stdout);
    }
    std::printf("field limit: %d characters; answer = key to the database's verdict shown, minus the 120 ms "
                "debounce\n",
                limit);
    return 0;
}
