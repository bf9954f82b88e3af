// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QFont>
#include <QFontMetricsF>
#include <QRectF>
#include <QString>

#include <vector>

namespace model {
struct Scenario;
} // namespace model

class QPainter;

namespace ui {

/// One MIG instance of a GPU card, as the fleet view shows it.
struct FleetInstance
{
    QString label;        ///< profile name, e.g. "3g.20gb"
    int compute = 1;      ///< compute slices
    int start = 0;        ///< first memory slice
    int memorySlices = 1; ///< memory slices spanned
};

/// One GPU of the fleet: its board, slice geometry and instances.
struct FleetCard
{
    int index = 0;
    QString board;
    int computeSlices = 7;
    int memorySlices = 8;
    std::vector<FleetInstance> instances;

    [[nodiscard]] int usedCompute() const;
    [[nodiscard]] int usedMemorySlices() const;
};

/// The cards of a scenario's GPUs in their scenario layouts.
[[nodiscard]] std::vector<FleetCard> fleetCards(const model::Scenario& scenario);

/// Sizes (pixels) of the fleet view's pieces.
struct FleetMetrics
{
    double margin = 6.0;
    double spacing = 12.0;
    double legendHeight = 22.0;
    double minCardWidth = 180.0;
    double maxCardWidth = 420.0;
    double titleHeight = 20.0;
    double axisHeight = 14.0; ///< row of memory-slice numbers
    double gridHeight = 64.0; ///< the slices themselves
    double footerHeight = 18.0;
    double padding = 8.0;  ///< inside the card frame
    double blockGap = 1.5; ///< inset of a block within its slices
};

/// Where one card's pieces go.
struct CardGeometry
{
    QRectF card; ///< frame
    QRectF title;
    QRectF axis;
    QRectF grid;
    QRectF footer;
    std::vector<QRectF> cells;  ///< one per memory slice
    std::vector<QRectF> blocks; ///< one per instance, in FleetCard::instances order
};

/// Where everything goes for a given width.
struct FleetGeometry
{
    QRectF legend;
    int columns = 0;
    int rows = 0;
    std::vector<CardGeometry> cards;
    double height = 0.0; ///< total height needed
};

/// Columns for @p count cards in @p width: as many as fit, then balanced so the last row is not
/// nearly empty (8 cards that fit 6 a row become 2 rows of 4).
[[nodiscard]] int fleetColumns(int count, double width, const FleetMetrics& metrics = {});

/// Lays out the legend and the cards, row by row, for a widget @p width pixels wide.
[[nodiscard]] FleetGeometry layoutFleet(const std::vector<FleetCard>& cards, double width,
                                        const FleetMetrics& metrics = {});

/// Height of one card (same for all cards).
[[nodiscard]] double cardHeight(const FleetMetrics& metrics = {});

/// How an instance's profile name fits its block, best first.
enum class LabelFit {
    Bold,     ///< one line in the bold label font
    Regular,  ///< one line in the smaller regular font
    TwoLines, ///< "3g" over "20gb" in the smaller font
    Rotated,  ///< one line turned 90 degrees (1-slice blocks of a big fleet)
    Elided,   ///< nothing fits: cut with an ellipsis
};

/// The best way @p label fits in @p area with the bold and the smaller regular font.
[[nodiscard]] LabelFit labelFit(const QString& label, const QSizeF& area, const QFontMetricsF& bold,
                                const QFontMetricsF& regular);

/// @p base scaled by @p factor, optionally bold.
[[nodiscard]] QFont scaledFont(const QFont& base, double factor, bool bold = false);

/// Draws an instance's profile label inside @p area of its block, in the largest form that fits
/// (labelFit), in the text colour that reads on its compute colour. Shared by every view that draws
/// GPUs slice by slice, so they label instances the same way.
/// @p onTint: the label sits on a pale tint of the size's colour (dark text), not on the colour.
void paintInstanceLabel(QPainter& painter, const FleetInstance& instance, const QRectF& area, const QFont& base,
                        bool onTint = false);

} // namespace ui
