// SPDX-License-Identifier: GPL-3.0-or-later
// The segment ends (simcore::EndHeap) in both layouts against a plain scan, on random starts,
// moves and removals: the heap and the unordered list of small fleets must give the same least
// (time, job) entry (docs/engine.md, "Speed"), ties in time included.
#include "end_heap.h"
#include "rng.h"

#include <QTest>

#include <vector>

class TestEndHeap : public QObject
{
    Q_OBJECT

private slots:
    void layoutsMatchPlainScan_data();
    void layoutsMatchPlainScan();
};

void TestEndHeap::layoutsMatchPlainScan_data()
{
    QTest::addColumn<bool>("flat");
    QTest::addColumn<int>("jobs");
    QTest::newRow("heap, 20 jobs") << false << 20;
    QTest::newRow("unordered list, 20 jobs") << true << 20;
    QTest::newRow("heap, 300 jobs") << false << 300;
    QTest::newRow("unordered list, 300 jobs") << true << 300;
}

void TestEndHeap::layoutsMatchPlainScan()
{
    QFETCH(bool, flat);
    QFETCH(int, jobs);
    simcore::EndHeap ends;
    ends.reset(static_cast<std::size_t>(jobs), flat);
    std::vector<double> end(static_cast<std::size_t>(jobs), -1.0); // -1: not in
    simcore::Rng rng(static_cast<std::uint64_t>(jobs) * 31u + (flat ? 1u : 0u));
    auto plainLeast = [&]() {
        int best = -1;
        for (int j = 0; j < jobs; ++j) {
            const double t = end[static_cast<std::size_t>(j)];
            if (t >= 0.0 && (best < 0 || t < end[static_cast<std::size_t>(best)]))
                best = j;
        }
        return best;
    };
    for (int round = 0; round < 20000; ++round) {
        const int j = static_cast<int>(rng.below(static_cast<std::uint64_t>(jobs)));
        const auto op = rng.below(10);
        if (op < 2) {
            ends.remove(j);
            end[static_cast<std::size_t>(j)] = -1.0;
        } else if (op < 3 && !ends.empty()) {
            const int top = ends.top().job; // a completion: the least entry leaves
            ends.remove(top);
            end[static_cast<std::size_t>(top)] = -1.0;
        } else {
            // Few distinct times, so that ties (broken by the job) and unchanged ends occur.
            const double t = static_cast<double>(rng.below(16));
            ends.set(j, t);
            end[static_cast<std::size_t>(j)] = t;
        }
        QCOMPARE(ends.contains(j), end[static_cast<std::size_t>(j)] >= 0.0);
        const int least = plainLeast();
        QCOMPARE(ends.empty(), least < 0);
        if (least >= 0) {
            QCOMPARE(ends.top().job, least);
            QCOMPARE(ends.top().time, end[static_cast<std::size_t>(least)]);
        }
    }
}

QTEST_APPLESS_MAIN(TestEndHeap)
#include "tst_end_heap.moc"
