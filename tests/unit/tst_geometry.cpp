// SPDX-License-Identifier: GPL-3.0-or-later
// MIG geometry of the shipped boards against the boards' placement rules (docs/scenario-format.md): the
// placement table, the two named configuration lists of the A100-40GB, the placement rules
// (validateLayout), the enumeration of every valid / maximal layout (checked against an
// independent brute force over subsets of placements) and the search for a placement.
#include "catalog.h"
#include "geometry.h"

#include <QtTest>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

using simcore::GpuModel;
using simcore::Layout;

namespace {

const GpuModel& board(const char* name)
{
    const GpuModel* gpu = model::Catalog::builtin().find(name);
    if (gpu == nullptr)
        qFatal("board %s missing from the built-in catalog", name);
    return *gpu;
}

const GpuModel& a100()
{
    return board("A100-40GB");
}

/// "3g.20gb@4 1g.5gb@0" -> layout (no validation: bad layouts are what some tests want).
Layout parse(const GpuModel& gpu, const QString& text)
{
    Layout layout;
    for (const QString& item : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        simcore::Placement p;
        std::string error;
        if (!model::parsePlacement(gpu, item.toStdString(), p, error))
            qFatal("bad test layout item %s: %s", qPrintable(item), error.c_str());
        layout.push_back(p);
    }
    return layout;
}

QString text(const GpuModel& gpu, const Layout& layout)
{
    return QString::fromStdString(simcore::layoutText(gpu, layout));
}

/// One row of the placement table of NVIDIA's MIG user guide, the same on all four boards.
struct Kind
{
    int nvmlId;
    int compute;
    int memorySlices;
    std::vector<int> starts;
    bool media;
};

const std::vector<Kind>& domainPlacementTable()
{
    static const std::vector<Kind> table = {
        {19, 1, 1, {0, 1, 2, 3, 4, 5, 6}, false}, // 1g: never at 7
        {20, 1, 1, {0, 1, 2, 3, 4, 5, 6}, true},  // 1g + media extensions
        {15, 1, 2, {0, 2, 4, 6}, false},          // 1g double memory
        {14, 2, 2, {0, 2, 4}, false},             // 2g
        {9, 3, 4, {0, 4}, false},                 // 3g
        {5, 4, 4, {0}, false},                    // 4g
        {0, 7, 8, {0}, false},                    // 7g
    };
    return table;
}

/// Every (profile, start) placement of the placement table, +me left out, as indices into the
/// board's profiles. Built from the table above, not from the catalog's own start lists.
struct Candidate
{
    simcore::Placement placement;
    unsigned memoryMask = 0;
    int compute = 0;
};

std::vector<Candidate> candidates(const GpuModel& gpu)
{
    std::vector<Candidate> out;
    for (const Kind& kind : domainPlacementTable()) {
        if (kind.media)
            continue;
        int profile = -1;
        for (size_t i = 0; i < gpu.profiles.size(); ++i) {
            if (gpu.profiles[i].nvmlId == kind.nvmlId)
                profile = static_cast<int>(i);
        }
        if (profile < 0)
            qFatal("no profile with NVML id %d", kind.nvmlId);
        for (int s : kind.starts) {
            const unsigned mask = ((1u << kind.memorySlices) - 1u) << s;
            out.push_back({{profile, s}, mask, kind.compute});
        }
    }
    return out;
}

/// Brute force over every subset of placements: valid = no two share a memory slice and at most
/// 7 compute slices in all; maximal = no further placement fits. Subsets as bit masks.
struct BruteForce
{
    std::vector<unsigned> valid;
    std::vector<unsigned> maximal;
    long long withMediaExtensions = 0; ///< valid layouts when one 1g may be a +me instance
};

BruteForce bruteForce(const std::vector<Candidate>& c, int oneGProfile)
{
    BruteForce out;
    const unsigned n = static_cast<unsigned>(c.size());
    for (unsigned subset = 1; subset < (1u << n); ++subset) {
        unsigned memory = 0;
        int compute = 0;
        int oneG = 0;
        bool ok = true;
        for (unsigned i = 0; i < n && ok; ++i) {
            if (!(subset & (1u << i)))
                continue;
            ok = (memory & c[i].memoryMask) == 0;
            memory |= c[i].memoryMask;
            compute += c[i].compute;
            oneG += c[i].placement.profile == oneGProfile ? 1 : 0;
        }
        if (!ok || compute > 7)
            continue;
        out.valid.push_back(subset);
        // With +me allowed: the layout itself, or one of its 1g.5gb instances made +me.
        out.withMediaExtensions += 1 + oneG;
        bool maximal = true;
        for (unsigned i = 0; i < n && maximal; ++i) {
            if (!(subset & (1u << i)) && (memory & c[i].memoryMask) == 0 && compute + c[i].compute <= 7)
                maximal = false;
        }
        if (maximal)
            out.maximal.push_back(subset);
    }
    return out;
}

std::vector<unsigned> asMasks(const std::vector<Candidate>& c, const std::vector<Layout>& layouts)
{
    std::vector<unsigned> masks;
    for (const Layout& layout : layouts) {
        unsigned mask = 0;
        for (const auto& p : layout) {
            const auto it = std::find_if(c.begin(), c.end(), [&](const Candidate& x) { return x.placement == p; });
            if (it == c.end())
                return {}; // a placement outside the table: the comparison below fails
            mask |= 1u << static_cast<unsigned>(it - c.begin());
        }
        masks.push_back(mask);
    }
    std::sort(masks.begin(), masks.end());
    return masks;
}

/// The papers' short names of the A100-40GB profiles ("1g" is 1g.5gb).
std::string fullName(const std::string& shortName)
{
    static const std::map<std::string, std::string> names = {
        {"7g", "7g.40gb"},   {"4g", "4g.20gb"},      {"3g", "3g.20gb"},   {"2g", "2g.10gb"},
        {"1g", "1g.5gb"},    {"1g.10gb", "1g.10gb"}, {"7_40", "7g.40gb"}, {"4_20", "4g.20gb"},
        {"3_20", "3g.20gb"}, {"2_10", "2g.10gb"},    {"1_10", "1g.10gb"}, {"1_5", "1g.5gb"}};
    return names.at(shortName);
}

std::vector<std::string> profileNames(const GpuModel& gpu, const Layout& layout)
{
    std::vector<std::string> names;
    for (const auto& p : layout)
        names.push_back(gpu.profiles[static_cast<size_t>(p.profile)].name);
    return names;
}

std::vector<std::string> expand(const QString& shortList)
{
    std::vector<std::string> names;
    for (const QString& item : shortList.split(QLatin1Char(','))) {
        const QStringList parts = item.split(QLatin1Char('x'));
        const int repeat = parts.size() > 1 ? parts[1].toInt() : 1;
        for (int i = 0; i < repeat; ++i)
            names.push_back(fullName(parts[0].toStdString()));
    }
    return names;
}

} // namespace

class TestGeometry : public QObject
{
    Q_OBJECT

private slots:
    void placementTable_data();
    void placementTable();
    void boardProfiles_data();
    void boardProfiles();
    void powerCurves_data();
    void powerCurves();
    void fleet12_data();
    void fleet12();
    void single19_data();
    void single19();
    void badLayouts_data();
    void badLayouts();
    void goodLayouts_data();
    void goodLayouts();
    void enumerateMatchesBruteForce();
    void enumerateWithMediaExtensions();
    void isMaximal_data();
    void isMaximal();
    void placeProfiles_data();
    void placeProfiles();
    void layoutTextAndSameInstances();
};

void TestGeometry::placementTable_data()
{
    QTest::addColumn<QString>("board");
    for (const char* b : {"A100-40GB", "A100-80GB", "H100-80GB", "H200-141GB"})
        QTest::newRow(b) << QString::fromLatin1(b);
}

void TestGeometry::placementTable()
{
    QFETCH(QString, board);
    const GpuModel& gpu = ::board(board.toLatin1().constData());
    QCOMPARE(gpu.computeSlices, 7);
    QCOMPARE(gpu.memorySlices, 8);
    QCOMPARE(gpu.profiles.size(), domainPlacementTable().size());
    for (const Kind& kind : domainPlacementTable()) {
        const auto it = std::find_if(gpu.profiles.begin(), gpu.profiles.end(),
                                     [&](const simcore::Profile& p) { return p.nvmlId == kind.nvmlId; });
        QVERIFY2(it != gpu.profiles.end(), qPrintable(QStringLiteral("no profile with NVML id %1").arg(kind.nvmlId)));
        const QByteArray what = QByteArray(it->name.c_str());
        QVERIFY2(it->compute == kind.compute, what);
        QVERIFY2(it->memorySlices == kind.memorySlices, what);
        QVERIFY2(it->starts == kind.starts, what);
        QVERIFY2(it->mediaExtensions == kind.media, what);
    }
    QCOMPARE(gpu.wholeGpuProfile(), gpu.findProfile(gpu.profiles[static_cast<size_t>(gpu.wholeGpuProfile())].name));
    QCOMPARE(gpu.profiles[static_cast<size_t>(gpu.wholeGpuProfile())].compute, 7);
}

void TestGeometry::boardProfiles_data()
{
    // Names, memory (GiB, where the notes give it) and SMs from docs/scenario-format.md;
    // A100-80GB: twice the A100-40GB memory, same SMs. -1: memory not given in the notes.
    QTest::addColumn<QString>("board");
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QList<double>>("memory");
    QTest::addColumn<QList<int>>("sms");
    // Order of the rows: 1g, 1g double memory, 2g, 3g, 4g, 7g.
    QTest::newRow("A100-40GB") << "A100-40GB"
                               << QStringList{"1g.5gb", "1g.10gb", "2g.10gb", "3g.20gb", "4g.20gb", "7g.40gb"}
                               << QList<double>{4.75, 9.625, 9.625, 19.5, 19.5, 39.25}
                               << QList<int>{14, 14, 28, 42, 56, 98};
    QTest::newRow("A100-80GB") << "A100-80GB"
                               << QStringList{"1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"}
                               << QList<double>{9.5, 19.25, 19.25, 39.0, 39.0, 78.5}
                               << QList<int>{14, 14, 28, 42, 56, 98};
    QTest::newRow("H100-80GB") << "H100-80GB"
                               << QStringList{"1g.10gb", "1g.20gb", "2g.20gb", "3g.40gb", "4g.40gb", "7g.80gb"}
                               << QList<double>{-1, -1, -1, -1, -1, -1} << QList<int>{16, 26, 32, 60, 64, 132};
    QTest::newRow("H200-141GB") << "H200-141GB"
                                << QStringList{"1g.18gb", "1g.35gb", "2g.35gb", "3g.71gb", "4g.71gb", "7g.141gb"}
                                << QList<double>{16.0, 32.25, 32.25, 69.5, 69.5, 139.75}
                                << QList<int>{16, 26, 32, 60, 64, 132};
}

void TestGeometry::boardProfiles()
{
    QFETCH(QString, board);
    QFETCH(QStringList, names);
    QFETCH(QList<double>, memory);
    QFETCH(QList<int>, sms);
    const GpuModel& gpu = ::board(board.toLatin1().constData());
    const int nvml[] = {19, 15, 14, 9, 5, 0};
    for (int i = 0; i < names.size(); ++i) {
        const int p = gpu.findProfile(names[i].toStdString());
        QVERIFY2(p >= 0, qPrintable(names[i]));
        const simcore::Profile& prof = gpu.profiles[static_cast<size_t>(p)];
        QCOMPARE(prof.nvmlId, nvml[i]);
        QCOMPARE(prof.sms, sms[i]);
        if (memory[i] > 0)
            QCOMPARE(prof.memoryGiB, memory[i]);
    }
    // The media-extension variant of the 1g profile is named "<1g name>+me".
    const int me = gpu.findProfile(names[0].toStdString() + "+me");
    QVERIFY(me >= 0);
    QVERIFY(gpu.profiles[static_cast<size_t>(me)].mediaExtensions);
    QCOMPARE(gpu.findProfile("no-such-profile"), -1);
}

void TestGeometry::powerCurves_data()
{
    placementTable_data();
}

void TestGeometry::powerCurves()
{
    QFETCH(QString, board);
    const GpuModel& gpu = ::board(board.toLatin1().constData());
    QCOMPARE(gpu.powerW.size(), size_t(8));
    QVERIFY(gpu.powerW[0] > 0.0);
    for (size_t b = 1; b < gpu.powerW.size(); ++b)
        QVERIFY2(gpu.powerW[b] >= gpu.powerW[b - 1], qPrintable(QStringLiteral("P(%1) < P(%2)").arg(b).arg(b - 1)));
    QVERIFY(gpu.powerW[7] > gpu.powerW[0]);
    QVERIFY(!gpu.powerSource.empty());
    if (board == QLatin1String("A100-40GB")) {
        // docs/engine.md, "Energy", measured at the 250 W cap.
        const std::vector<double> expected = {40, 119, 160, 205.3, 243.9, 247.7, 248.5, 248.5};
        QCOMPARE(gpu.powerW, expected);
    }
}

void TestGeometry::fleet12_data()
{
    // docs/scenario-format.md, the 12-configuration list (1g = 1g.5gb), listed left to right.
    QTest::addColumn<int>("number");
    QTest::addColumn<QString>("profiles");
    const char* rows[] = {
        "7g",          "4g,3g",   "4g,2g,1g.10gb", "4g,1g,1g,1g.10gb",    "3g,3g",           "2g,2g,3g",
        "2g,1g,1g,3g", "1gx4,3g", "2gx3,1g.10gb",  "2g,2g,1g,1g,1g.10gb", "2g,1gx4,1g.10gb", "1gx6,1g.10gb"};
    for (int i = 0; i < 12; ++i)
        QTest::addRow("%d", i + 1) << i + 1 << QString::fromLatin1(rows[i]);
}

void TestGeometry::fleet12()
{
    QFETCH(int, number);
    QFETCH(QString, profiles);
    const GpuModel& gpu = a100();
    const simcore::ConfigList* list = gpu.findList("fleet-12");
    QVERIFY(list != nullptr);
    QCOMPARE(list->layouts.size(), size_t(12));
    const Layout& layout = list->layouts[static_cast<size_t>(number - 1)];
    QVERIFY2(simcore::validateLayout(gpu, layout).empty(), qPrintable(text(gpu, layout)));
    QCOMPARE(profileNames(gpu, layout), expand(profiles));
    // "All fill the 40 GB": every memory slice is used; "left to right": starts ascend.
    int memory = 0;
    for (size_t i = 0; i < layout.size(); ++i) {
        memory += gpu.profiles[static_cast<size_t>(layout[i].profile)].memorySlices;
        if (i > 0)
            QVERIFY2(layout[i].start > layout[i - 1].start, qPrintable(text(gpu, layout)));
    }
    QCOMPARE(memory, 8);
    QVERIFY(simcore::isMaximal(gpu, layout));
}

void TestGeometry::single19_data()
{
    // docs/scenario-format.md, the 19-configuration list (compute_memoryGB).
    QTest::addColumn<int>("number");
    QTest::addColumn<QString>("profiles");
    const char* rows[] = {"7_40",
                          "4_20,3_20",
                          "4_20,2_10,1_10",
                          "4_20,1_5,1_5,1_5",
                          "3_20,3_20",
                          "3_20,2_10,1_10",
                          "3_20,1_10,1_5,1_5",
                          "2_10,2_10,3_20",
                          "2_10,1_5,1_5,3_20",
                          "1_5,1_5,2_10,3_20",
                          "1_5x4,3_20",
                          "2_10x3,1_10",
                          "2_10,1_5,1_5,2_10,1_10",
                          "1_5,1_5,2_10,2_10,1_10",
                          "2_10,1_10,1_5x4",
                          "1_5,1_5,2_10,1_10,1_5,1_5",
                          "1_5,1_5,1_10,1_5,2_10,1_5",
                          "1_5,1_5,1_10,1_5,1_5,2_10",
                          "1_5x7"};
    for (int i = 0; i < 19; ++i)
        QTest::addRow("%d", i + 1) << i + 1 << QString::fromLatin1(rows[i]);
}

void TestGeometry::single19()
{
    QFETCH(int, number);
    QFETCH(QString, profiles);
    const GpuModel& gpu = a100();
    const simcore::ConfigList* list = gpu.findList("single-19");
    QVERIFY(list != nullptr);
    QCOMPARE(list->layouts.size(), size_t(19));
    const Layout& layout = list->layouts[static_cast<size_t>(number - 1)];
    QVERIFY2(simcore::validateLayout(gpu, layout).empty(), qPrintable(text(gpu, layout)));
    QCOMPARE(profileNames(gpu, layout), expand(profiles));
}

void TestGeometry::badLayouts_data()
{
    QTest::addColumn<QString>("layout");
    QTest::addColumn<int>("instance"); // the instance the problem names; -1 for the whole layout
    QTest::addColumn<QString>("reason");
    // 3g.20gb@0 covers memory slices 0-3, 2g.10gb@2 covers 2-3.
    QTest::newRow("overlap") << "3g.20gb@0 2g.10gb@2" << 1 << "overlaps";
    QTest::newRow("overlap 4g+3g both at 0") << "4g.20gb@0 3g.20gb@0" << 1 << "overlaps";
    QTest::newRow("3g at 2") << "3g.20gb@2" << 0 << "cannot start at memory slice 2";
    QTest::newRow("4g at 4") << "3g.20gb@0 4g.20gb@4" << 1 << "cannot start at memory slice 4";
    QTest::newRow("2g at 6") << "2g.10gb@6" << 0 << "cannot start at memory slice 6";
    QTest::newRow("1g.10gb at 1") << "1g.10gb@1" << 0 << "cannot start at memory slice 1";
    QTest::newRow("1g at 7") << "4g.20gb@0 1g.5gb@4 1g.5gb@5 1g.5gb@6 1g.5gb@7" << 4
                             << "cannot start at memory slice 7";
    // 7g (7) + 1g (1) = 8 compute slices > 7 (they also overlap; both problems are reported).
    QTest::newRow("too many compute slices") << "7g.40gb@0 1g.5gb@3" << -1 << "too many compute slices: 8";
    QTest::newRow("two +me") << "1g.5gb+me@0 1g.5gb+me@1" << -1 << "media-extension";
    QTest::newRow("+me at 7") << "1g.5gb+me@7" << 0 << "cannot start at memory slice 7";
}

void TestGeometry::badLayouts()
{
    QFETCH(QString, layout);
    QFETCH(int, instance);
    QFETCH(QString, reason);
    const auto problems = simcore::validateLayout(a100(), parse(a100(), layout));
    QVERIFY(!problems.empty());
    bool found = false;
    QStringList all;
    for (const auto& p : problems) {
        all << QString::fromStdString(p.message);
        found = found || (p.instance == instance && QString::fromStdString(p.message).contains(reason));
    }
    QVERIFY2(found, qPrintable(all.join(QLatin1String(" | "))));
}

void TestGeometry::goodLayouts_data()
{
    QTest::addColumn<QString>("layout");
    QTest::newRow("3g at 0 + three 1g") << "3g.20gb@0 1g.5gb@4 1g.5gb@5 1g.5gb@6";
    QTest::newRow("listed right to left") << "3g.20gb@4 2g.10gb@2 2g.10gb@0";
    QTest::newRow("one +me among 1g") << "1g.5gb+me@0 1g.5gb@1 1g.5gb@2";
    QTest::newRow("1g.10gb at 6") << "4g.20gb@0 2g.10gb@4 1g.10gb@6";
    QTest::newRow("seven 1g") << "1g.5gb@0 1g.5gb@1 1g.5gb@2 1g.5gb@3 1g.5gb@4 1g.5gb@5 1g.5gb@6";
    QTest::newRow("partial") << "2g.10gb@2";
}

void TestGeometry::goodLayouts()
{
    QFETCH(QString, layout);
    const auto problems = simcore::validateLayout(a100(), parse(a100(), layout));
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().message.c_str());
}

void TestGeometry::enumerateMatchesBruteForce()
{
    const GpuModel& gpu = a100();
    const auto c = candidates(gpu);
    QCOMPARE(c.size(), size_t(7 + 4 + 3 + 2 + 1 + 1)); // 18 placements without +me
    const BruteForce expected = bruteForce(c, gpu.findProfile("1g.5gb"));

    const auto all = simcore::enumerateLayouts(gpu, false);
    const auto maximal = simcore::enumerateLayouts(gpu, true);
    QCOMPARE(all.size(), expected.valid.size());
    QCOMPARE(maximal.size(), expected.maximal.size());
    QCOMPARE(asMasks(c, all), expected.valid); // same sets (brute force is sorted already)
    QCOMPARE(asMasks(c, maximal), expected.maximal);
    for (const Layout& l : all) {
        QVERIFY2(simcore::validateLayout(gpu, l).empty(), qPrintable(text(gpu, l)));
        for (size_t i = 1; i < l.size(); ++i)
            QVERIFY2(l[i].start > l[i - 1].start, qPrintable(text(gpu, l))); // ordered by start
    }
    for (const Layout& l : maximal)
        QVERIFY2(simcore::isMaximal(gpu, l), qPrintable(text(gpu, l)));
    // Every configuration of the fleet-12 list is maximal, so all 12 are among the enumerated.
    for (const Layout& l : gpu.findList("fleet-12")->layouts) {
        const bool listed =
            std::any_of(maximal.begin(), maximal.end(), [&](const Layout& m) { return simcore::sameInstances(m, l); });
        QVERIFY2(listed, qPrintable(text(gpu, l)));
    }
}

void TestGeometry::enumerateWithMediaExtensions()
{
    // With +me allowed, each valid layout appears as is and once per 1g.5gb instance turned into
    // the (at most one) 1g.5gb+me instance at the same place.
    const GpuModel& gpu = a100();
    const BruteForce expected = bruteForce(candidates(gpu), gpu.findProfile("1g.5gb"));
    const auto withMe = simcore::enumerateLayouts(gpu, false, true);
    QCOMPARE(static_cast<long long>(withMe.size()), expected.withMediaExtensions);
    const int me = gpu.findProfile("1g.5gb+me");
    for (const Layout& l : withMe) {
        QVERIFY(simcore::validateLayout(gpu, l).empty());
        QVERIFY(std::count_if(l.begin(), l.end(), [&](const simcore::Placement& p) { return p.profile == me; }) <= 1);
    }
}

void TestGeometry::isMaximal_data()
{
    QTest::addColumn<QString>("layout");
    QTest::addColumn<bool>("maximal");
    QTest::newRow("7g") << "7g.40gb@0" << true;
    QTest::newRow("4g+3g: 7 compute slices") << "4g.20gb@0 3g.20gb@4" << true;
    // 3g+3g uses 6 compute slices but all 8 memory slices: nothing else fits.
    QTest::newRow("3g+3g: memory full") << "3g.20gb@0 3g.20gb@4" << true;
    QTest::newRow("4g alone") << "4g.20gb@0" << false;
    // 3g@0 + 1g at 4,5,6: one compute slice and memory slice 7 left, but 1g never starts at 7.
    QTest::newRow("3g + three 1g") << "3g.20gb@0 1g.5gb@4 1g.5gb@5 1g.5gb@6" << true;
    // 2g x3 leaves memory slices 6-7 and a compute slice: a 1g (or 1g.10gb) fits at 6.
    QTest::newRow("2g x3") << "2g.10gb@0 2g.10gb@2 2g.10gb@4" << false;
    QTest::newRow("3g at 4 alone") << "3g.20gb@4" << false;
}

void TestGeometry::isMaximal()
{
    QFETCH(QString, layout);
    QFETCH(bool, maximal);
    QCOMPARE(simcore::isMaximal(a100(), parse(a100(), layout)), maximal);
}

void TestGeometry::placeProfiles_data()
{
    QTest::addColumn<QString>("profiles");
    QTest::addColumn<QString>("expected"); // empty: no placement exists
    // Starts tried in ascending order: 3g@0, 1g.10gb@4, 1g@6, then the last 1g finds no start
    // (7 is not allowed) -> back to 1g.10gb@6, then the 1g instances at 4 and 5.
    QTest::newRow("3g,1g.10gb,1g,1g") << "3g.20gb,1g.10gb,1g.5gb,1g.5gb"
                                      << "3g.20gb@0 1g.10gb@6 1g.5gb@4 1g.5gb@5";
    QTest::newRow("4g,3g") << "4g.20gb,3g.20gb"
                           << "4g.20gb@0 3g.20gb@4";
    QTest::newRow("3g,4g: order kept") << "3g.20gb,4g.20gb"
                                       << "3g.20gb@4 4g.20gb@0";
    QTest::newRow("two 4g") << "4g.20gb,4g.20gb"
                            << "";
    QTest::newRow("3g,3g,1g: memory full") << "3g.20gb,3g.20gb,1g.5gb"
                                           << "";
    QTest::newRow("eight 1g") << "1g.5gb,1g.5gb,1g.5gb,1g.5gb,1g.5gb,1g.5gb,1g.5gb,1g.5gb"
                              << "";
    QTest::newRow("two +me") << "1g.5gb+me,1g.5gb+me"
                             << "";
}

void TestGeometry::placeProfiles()
{
    QFETCH(QString, profiles);
    QFETCH(QString, expected);
    const GpuModel& gpu = a100();
    std::vector<int> ids;
    for (const QString& name : profiles.split(QLatin1Char(',')))
        ids.push_back(gpu.findProfile(name.toStdString()));
    const auto placed = simcore::placeProfiles(gpu, ids);
    if (expected.isEmpty()) {
        QVERIFY2(!placed.has_value(), placed ? qPrintable(text(gpu, *placed)) : "");
        return;
    }
    QVERIFY(placed.has_value());
    QVERIFY(simcore::validateLayout(gpu, *placed).empty());
    QCOMPARE(text(gpu, *placed), expected);
}

void TestGeometry::layoutTextAndSameInstances()
{
    const GpuModel& gpu = a100();
    const Layout a = parse(gpu, QStringLiteral("4g.20gb@0 3g.20gb@4"));
    const Layout b = parse(gpu, QStringLiteral("3g.20gb@4 4g.20gb@0"));
    QCOMPARE(text(gpu, a), QStringLiteral("4g.20gb@0 3g.20gb@4"));
    QCOMPARE(text(gpu, {}), QStringLiteral("(empty)"));
    QVERIFY(simcore::sameInstances(a, b));
    QVERIFY(!simcore::sameInstances(a, parse(gpu, QStringLiteral("4g.20gb@0 2g.10gb@4 1g.10gb@6"))));
    QVERIFY(!simcore::sameInstances(a, parse(gpu, QStringLiteral("4g.20gb@0"))));
}

QTEST_APPLESS_MAIN(TestGeometry)
#include "tst_geometry.moc"
