// SPDX-License-Identifier: GPL-3.0-or-later
#include "variantbar.h"

#include "variantcommands.h"
#include "variantoverrides.h"
#include "workspace.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QToolButton>

namespace ui {

namespace {

/// "; overrides: load x1.5, seed 7" for what a variant overrides besides its fleet.
QString overridesSummary(const model::Variant& v)
{
    QStringList parts;
    if (v.multiplier)
        parts << VariantBar::tr("load ×%1").arg(*v.multiplier);
    if (v.seed)
        parts << VariantBar::tr("seed %1").arg(*v.seed);
    if (v.preemption)
        parts << QString::fromStdString(model::preemptionName(*v.preemption));
    if (v.energyWeight)
        parts << VariantBar::tr("a = %1").arg(*v.energyWeight);
    return parts.isEmpty() ? QString() : VariantBar::tr("; overrides: %1").arg(parts.join(QStringLiteral(", ")));
}

} // namespace

VariantBar::VariantBar(Workspace* workspace, QWidget* parent) : QWidget(parent), m_workspace(workspace)
{
    setObjectName(QStringLiteral("variantBar"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setupWidgets();
    connectSignals();
    refresh();
}

void VariantBar::setupWidgets()
{
    m_selector = new QComboBox;
    m_selector->setObjectName(QStringLiteral("variantSelector"));
    m_selector->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_selector->setToolTip(tr("Which fleet the editor changes: the base scenario's, or a variant's own fleet"));
    m_add = new QToolButton;
    m_add->setObjectName(QStringLiteral("addVariantButton"));
    m_add->setText(tr("Add variant"));
    m_add->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(m_add);
    m_fromFleet = menu->addAction(tr("From the fleet shown"));
    m_fromFleet->setObjectName(QStringLiteral("addVariantFromFleet"));
    m_fromGallery = menu->addAction(tr("From the gallery's configuration (on every GPU)"));
    m_fromGallery->setObjectName(QStringLiteral("addVariantFromGallery"));
    m_fromGallery->setEnabled(false);
    m_add->setMenu(menu);
    m_rename = new QToolButton;
    m_rename->setText(tr("Rename…"));
    m_remove = new QToolButton;
    m_remove->setText(tr("Remove"));
    m_overrides = new QToolButton;
    m_overrides->setObjectName(QStringLiteral("variantOverridesButton"));
    m_overrides->setText(tr("Overrides…"));
    m_overrides->setToolTip(tr("This variant's workload multiplier and seed, preemption mode and energy weight"));
    m_state = new QLabel;
    m_state->setObjectName(QStringLiteral("variantState"));
    m_state->setForegroundRole(QPalette::PlaceholderText);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_selector);
    row->addWidget(m_add);
    row->addWidget(m_rename);
    row->addWidget(m_remove);
    row->addWidget(m_overrides);
    row->addWidget(m_state, 1);
}

void VariantBar::connectSignals()
{
    connect(m_workspace, &Workspace::variantRenamed, this, [this](const QString& from, const QString& to) {
        // In place, so the editor stays on the renamed variant.
        if (const int index = m_selector->findData(from); index >= 0) {
            m_selector->setItemData(index, to);
            m_selector->setItemText(index, tr("Editing: %1").arg(to));
        }
    });
    connect(m_workspace, &Workspace::variantsChanged, this, &VariantBar::refresh);
    connect(m_selector, &QComboBox::currentIndexChanged, this, [this] {
        updateState();
        if (!m_refreshing)
            emit currentChanged(current());
    });
    connect(m_fromFleet, &QAction::triggered, this, &VariantBar::addFromFleetRequested);
    connect(m_fromGallery, &QAction::triggered, this, &VariantBar::addFromGalleryRequested);
    connect(m_rename, &QToolButton::clicked, this, &VariantBar::askRename);
    connect(m_remove, &QToolButton::clicked, this, &VariantBar::removeCurrent);
    connect(m_overrides, &QToolButton::clicked, this, &VariantBar::editOverrides);
}

QString VariantBar::current() const
{
    return m_selector->currentData().toString();
}

bool VariantBar::setCurrent(const QString& name)
{
    const int index = m_selector->findData(name);
    if (index < 0)
        return false;
    m_selector->setCurrentIndex(index);
    return true;
}

void VariantBar::setGalleryChoice(bool chosen)
{
    m_fromGallery->setEnabled(chosen);
}

void VariantBar::refresh()
{
    const QString before = current();
    m_refreshing = true;
    m_selector->clear();
    m_selector->addItem(tr("Editing: Base scenario"), QString());
    for (const model::Variant& v : m_workspace->variants()) {
        const QString name = QString::fromStdString(v.name);
        m_selector->addItem(tr("Editing: %1").arg(name), name);
    }
    const int index = m_selector->findData(before);
    m_selector->setCurrentIndex(std::max(0, index));
    m_refreshing = false;
    updateState();
    if (index < 0) // the variant edited was removed or renamed: the editor follows the base
        emit currentChanged(current());
}

void VariantBar::updateState()
{
    const model::Variant* v = m_workspace->variant(current());
    m_rename->setEnabled(v != nullptr);
    m_remove->setEnabled(v != nullptr);
    m_overrides->setEnabled(v != nullptr);
    if (!v)
        m_state->setText(m_workspace->variants().empty() ? tr("No variants: add one to compare another fleet")
                                                         : tr("Variants without their own fleet follow these edits"));
    else if (v->fleet)
        m_state->setText(tr("This variant has its own fleet; the base is unchanged by these edits") +
                         overridesSummary(*v));
    else
        m_state->setText(tr("This variant uses the base fleet; the first edit gives it its own") +
                         overridesSummary(*v));
}

QString VariantBar::stateText() const
{
    return m_state->text();
}

QDialog* VariantBar::overridesDialog() const
{
    return m_dialog;
}

void VariantBar::editOverrides()
{
    const model::Variant* v = m_workspace->variant(current());
    const auto base = m_workspace->scenario();
    if (!v || !base || m_dialog)
        return;
    const QString name = current();
    auto* dialog = new VariantOverridesDialog(
        *v, *base,
        [this, name](const model::Variant& o) {
            const model::Variant* edited = m_workspace->variant(name);
            if (!edited)
                return tr("variant '%1' does not exist").arg(name);
            const model::Variant before = *edited;
            const QString problem = m_workspace->setVariantOverrides(name, o);
            const model::Variant* after = m_workspace->variant(name);
            if (problem.isEmpty() && after &&
                (after->multiplier != before.multiplier || after->seed != before.seed ||
                 after->preemption != before.preemption || after->energyWeight != before.energyWeight))
                pushVariantOverrides(m_undo, m_workspace, name, before, *after);
            return problem;
        },
        window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::finished, this, [this] { updateState(); });
    m_dialog = dialog;
    dialog->open();
}

QString VariantBar::renameCurrent(const QString& name)
{
    const QString from = current();
    if (from.isEmpty())
        return tr("the base scenario cannot be renamed");
    const QString to = name.trimmed();
    const QString problem = m_workspace->renameVariant(from, to);
    if (problem.isEmpty()) {
        setCurrent(to);
        pushVariantRenamed(m_undo, m_workspace, from, to);
    }
    return problem;
}

void VariantBar::askRename()
{
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, tr("Rename variant"), tr("New name:"), QLineEdit::Normal, current(), &ok);
    if (!ok)
        return;
    if (const QString problem = renameCurrent(name); !problem.isEmpty())
        QMessageBox::warning(this, tr("Rename variant"), problem);
}

void VariantBar::removeCurrent()
{
    if (const auto removed = m_workspace->removeVariant(current()))
        pushVariantRemoved(m_undo, m_workspace, *removed);
}

} // namespace ui
