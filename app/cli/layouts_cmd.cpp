// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "catalog.h"
#include "commands.h"
#include "result_json.h"

namespace cli {

int runLayouts(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {"--maximal", "--json", "--lists"}, {"--gpu"});
    const std::string board = args.value("--gpu").value_or("A100-40GB");
    const auto& catalog = model::Catalog::builtin();
    const simcore::GpuModel* gpu = catalog.find(board);
    if (gpu == nullptr) {
        err << "migsight-cli layouts: unknown GPU '" << board << "' (known: " << catalog.names() << ")\n";
        return kExitBadInput;
    }
    if (args.flag("--lists")) {
        for (const auto& list : gpu->configLists) {
            out << list.name << ": " << list.description << "\n";
            for (size_t i = 0; i < list.layouts.size(); ++i)
                out << "  " << (i + 1) << ": " << simcore::layoutText(*gpu, list.layouts[i]) << "\n";
        }
        return kExitOk;
    }
    const auto layouts = simcore::enumerateLayouts(*gpu, args.flag("--maximal"));
    if (args.flag("--json")) {
        out << model::layoutsJson(*gpu, layouts) << "\n";
        return kExitOk;
    }
    out << layouts.size() << (args.flag("--maximal") ? " maximal" : " valid") << " layouts of " << gpu->name
        << " (media-extension profiles left out):\n";
    for (const auto& l : layouts)
        out << "  " << simcore::layoutText(*gpu, l) << "\n";
    return kExitOk;
}

} // namespace cli
