// SPDX-License-Identifier: GPL-3.0-or-later
// The most-packed index against a plain scan of the GPUs, on random updates: small fleets use the
// one-word sets, larger ones the bitsets; both must give the most-packed scan order of docs/engine.md
// (busy compute slices descending, then GPU index ascending).
#include "packed_index.h"
#include "rng.h"

#include <QTest>

#include <vector>

class TestPackedIndex : public QObject
{
    Q_OBJECT

private slots:
    void matchesPlainScan_data();
    void matchesPlainScan();
};

void TestPackedIndex::matchesPlainScan_data()
{
    QTest::addColumn<int>("gpus");
    QTest::newRow("1 GPU (one word)") << 1;
    QTest::newRow("8 GPUs (one word)") << 8;
    QTest::newRow("64 GPUs (one word, largest)") << simcore::PackedIndex::kWordMax;
    QTest::newRow("65 GPUs (bitsets, smallest)") << simcore::PackedIndex::kWordMax + 1;
    QTest::newRow("300 GPUs (bitsets, several words)") << 300;
    QTest::newRow("5000 GPUs (bitsets, several summaries)") << 5000;
}

void TestPackedIndex::matchesPlainScan()
{
    QFETCH(int, gpus);
    simcore::PackedIndex index;
    index.reset(gpus);
    std::vector<int> busy(static_cast<size_t>(gpus), 0);
    std::vector<unsigned> free(static_cast<size_t>(gpus), 0u);
    simcore::Rng rng(static_cast<std::uint64_t>(gpus) * 7919u);
    auto plainFirst = [&](unsigned mask) {
        int best = -1;
        for (int g = 0; g < gpus; ++g) {
            if ((free[static_cast<size_t>(g)] & mask) != 0 &&
                (best < 0 || busy[static_cast<size_t>(g)] > busy[static_cast<size_t>(best)]))
                best = g;
        }
        return best;
    };
    for (int round = 0; round < 4000; ++round) {
        // Few distinct busy levels and sparse free sizes, so that ties and empty answers occur.
        const int g = static_cast<int>(rng.below(static_cast<std::uint64_t>(gpus)));
        busy[static_cast<size_t>(g)] = static_cast<int>(rng.below(8));
        free[static_cast<size_t>(g)] = static_cast<unsigned>(rng.below(256)) & 0x96u;
        index.update(g, busy[static_cast<size_t>(g)], free[static_cast<size_t>(g)]);
        unsigned available = 0;
        for (unsigned f : free)
            available |= f;
        QCOMPARE(index.availableSizes(), available);
        for (unsigned mask : {0x02u, 0x04u, 0x10u, 0x80u, 0x96u, 0xFEu, 0x14u}) {
            if (index.first(mask) != plainFirst(mask))
                QFAIL(qPrintable(QStringLiteral("round %1, mask %2: index says GPU %3, plain scan GPU %4")
                                     .arg(round)
                                     .arg(mask, 0, 16)
                                     .arg(index.first(mask))
                                     .arg(plainFirst(mask))));
        }
    }
}

QTEST_APPLESS_MAIN(TestPackedIndex)
#include "tst_packed_index.moc"
