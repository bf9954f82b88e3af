// SPDX-License-Identifier: GPL-3.0-or-later
// The fleet view's layout maths: which rectangle each GPU card and each MIG instance gets.
#include "fleetlayout.h"
#include "scenario.h"

#include <QFont>
#include <QTest>

#include <algorithm>
#include <vector>

Q_DECLARE_METATYPE(std::vector<ui::FleetCard>)

namespace {

ui::FleetCard card(int index, std::vector<ui::FleetInstance> instances)
{
    return {index, QStringLiteral("A100-40GB"), 7, 8, std::move(instances)};
}

/// Fleet of @p count GPUs, cycling through a few real A100 layouts.
std::vector<ui::FleetCard> fleet(int count)
{
    const std::vector<std::vector<ui::FleetInstance>> layouts{
        {{"7g.40gb", 7, 0, 8}},
        {{"4g.20gb", 4, 0, 4}, {"3g.20gb", 3, 4, 4}},
        {{"2g.10gb", 2, 0, 2}, {"2g.10gb", 2, 2, 2}, {"1g.5gb", 1, 4, 1}, {"1g.5gb", 1, 5, 1}, {"1g.10gb", 1, 6, 2}},
        {{"1g.5gb", 1, 0, 1},
         {"1g.5gb", 1, 1, 1},
         {"1g.5gb", 1, 2, 1},
         {"1g.5gb", 1, 3, 1},
         {"1g.5gb", 1, 4, 1},
         {"1g.5gb", 1, 5, 1},
         {"1g.5gb", 1, 6, 1}},
        {},
    };
    std::vector<ui::FleetCard> cards;
    for (int i = 0; i < count; ++i)
        cards.push_back(card(i, layouts[static_cast<size_t>(i) % layouts.size()]));
    return cards;
}

bool overlap(const QRectF& a, const QRectF& b)
{
    return a.intersected(b).width() > 1e-9 && a.intersected(b).height() > 1e-9;
}

} // namespace

class TestFleetLayout : public QObject
{
    Q_OBJECT

private slots:
    void columns_data();
    void columns();
    void geometry_data();
    void geometry();
    void cardsOfQuickstart();
    void labelFit_data();
    void labelFit();
};

void TestFleetLayout::columns_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<double>("width");
    QTest::addColumn<int>("columns");
    QTest::newRow("no GPUs") << 0 << 800.0 << 0;
    QTest::newRow("one GPU, narrow") << 1 << 100.0 << 1;
    QTest::newRow("two GPUs side by side") << 2 << 850.0 << 2;
    QTest::newRow("8 GPUs at 1280: 2 rows of 4, not 6 + 2") << 8 << 1280.0 << 4;
    QTest::newRow("8 GPUs in the overview's fleet panel") << 8 << 850.0 << 4;
    QTest::newRow("5 GPUs: 3 + 2 rather than 4 + 1") << 5 << 850.0 << 3;
    QTest::newRow("7 GPUs, 2 fit a row") << 7 << 400.0 << 2;
    QTest::newRow("3 GPUs in one row") << 3 << 1280.0 << 3;
}

void TestFleetLayout::columns()
{
    QFETCH(int, count);
    QFETCH(double, width);
    QFETCH(int, columns);
    QCOMPARE(ui::fleetColumns(count, width), columns);
    QCOMPARE(ui::layoutFleet(fleet(count), width).columns, columns);
}

void TestFleetLayout::geometry_data()
{
    QTest::addColumn<std::vector<ui::FleetCard>>("cards");
    QTest::addColumn<double>("width");
    QTest::newRow("quickstart") << fleet(3) << 850.0;
    QTest::newRow("paper fleet") << fleet(8) << 850.0;
    QTest::newRow("paper fleet, full width") << fleet(8) << 1280.0;
    QTest::newRow("32 GPUs, narrow") << fleet(32) << 420.0;
    QTest::newRow("one GPU, wider than a card may grow") << fleet(1) << 1600.0;
    QTest::newRow("empty fleet") << std::vector<ui::FleetCard>{} << 600.0;
}

void TestFleetLayout::geometry()
{
    QFETCH(std::vector<ui::FleetCard>, cards);
    QFETCH(double, width);
    const ui::FleetMetrics m;
    const ui::FleetGeometry g = ui::layoutFleet(cards, width, m);
    QCOMPARE(g.cards.size(), cards.size());
    for (size_t c = 0; c < cards.size(); ++c) {
        const ui::CardGeometry& cg = g.cards[c];
        QVERIFY(cg.card.left() >= 0.0 && cg.card.right() <= width);
        QVERIFY(cg.card.width() <= m.maxCardWidth);
        QVERIFY(cg.card.bottom() <= g.height);
        QVERIFY(!overlap(cg.card, g.legend));
        for (size_t other = c + 1; other < cards.size(); ++other)
            QVERIFY2(!overlap(cg.card, g.cards[other].card), "cards overlap");
        QCOMPARE(cg.cells.size(), size_t(8));
        QCOMPARE(cg.blocks.size(), cards[c].instances.size());
        for (size_t i = 0; i < cg.blocks.size(); ++i) {
            const ui::FleetInstance& inst = cards[c].instances[i];
            const QRectF& block = cg.blocks[i];
            QVERIFY(cg.grid.contains(block));
            // The block spans exactly its memory slices, less the gap that separates neighbours.
            QCOMPARE(block.left(), cg.cells[static_cast<size_t>(inst.start)].left() + m.blockGap);
            QCOMPARE(block.right(),
                     cg.cells[static_cast<size_t>(inst.start + inst.memorySlices - 1)].right() - m.blockGap);
            for (size_t j = i + 1; j < cg.blocks.size(); ++j)
                QVERIFY2(!overlap(block, cg.blocks[j]), "instances overlap");
        }
    }
}

void TestFleetLayout::cardsOfQuickstart()
{
    model::Problems problems;
    const model::Scenario scenario = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/quickstart.json", problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    const std::vector<ui::FleetCard> cards = ui::fleetCards(scenario);
    QCOMPARE(cards.size(), size_t(2));
    QCOMPARE(cards[1].index, 1);
    QCOMPARE(cards[1].board, QStringLiteral("A100-40GB"));
    QCOMPARE(cards[1].memorySlices, 8);
    QCOMPARE(cards[1].instances.size(), size_t(5));
    const ui::FleetInstance& last = cards[1].instances[4];
    QCOMPARE(last.label, QStringLiteral("1g.10gb"));
    QCOMPARE(last.compute, 1);
    QCOMPARE(last.start, 6);
    QCOMPARE(last.memorySlices, 2);
    QCOMPARE(cards[0].usedCompute(), 7);
    QCOMPARE(cards[1].usedMemorySlices(), 8);
}

void TestFleetLayout::labelFit_data()
{
    // Each case gets the smallest block its fit needs (from the label's own widths, so the test
    // holds for any font): a block that size must not be given a worse fit.
    QTest::addColumn<QString>("label");
    QTest::addColumn<int>("fit");
    QTest::newRow("wide block: bold") << "3g.20gb" << int(ui::LabelFit::Bold);
    QTest::newRow("a little narrower: regular") << "1g.5gb" << int(ui::LabelFit::Regular);
    QTest::newRow("two slices of a big fleet: two lines") << "2g.10gb" << int(ui::LabelFit::TwoLines);
    QTest::newRow("one slice of a big fleet: turned") << "1g.5gb" << int(ui::LabelFit::Rotated);
    QTest::newRow("no room at all: cut") << "1g.10gb" << int(ui::LabelFit::Elided);
}

void TestFleetLayout::labelFit()
{
    QFETCH(QString, label);
    QFETCH(int, fit);
    QFont boldFont;
    boldFont.setBold(true);
    const QFontMetricsF bold(boldFont);
    const QFontMetricsF regular{QFont()};
    const QStringList lines = label.split(QLatin1Char('.'));
    const double twoLineWidth = std::max(regular.horizontalAdvance(lines[0]), regular.horizontalAdvance(lines[1]));
    double width = 0.0;
    double height = 3.0 * regular.height();
    switch (static_cast<ui::LabelFit>(fit)) {
    case ui::LabelFit::Bold:
        width = bold.horizontalAdvance(label) + 6.0;
        break;
    case ui::LabelFit::Regular:
        width = regular.horizontalAdvance(label) + 4.0;
        break;
    case ui::LabelFit::TwoLines:
        width = twoLineWidth + 4.0;
        break;
    case ui::LabelFit::Rotated:
        width = regular.height() + 1.0;
        height = regular.horizontalAdvance(label) + 4.0;
        break;
    case ui::LabelFit::Elided:
        width = regular.height() - 1.0;
        height = regular.height();
        break;
    }
    QCOMPARE(int(ui::labelFit(label, QSizeF(width, height), bold, regular)), fit);
}

QTEST_MAIN(TestFleetLayout)
#include "tst_fleetlayout.moc"
