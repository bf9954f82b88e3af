// SPDX-License-Identifier: GPL-3.0-or-later
// What every command prints the same way: problems, and a result as text or JSON.
#include "atomic_file.h"
#include "commands.h"

#include <sstream>

namespace cli {

bool printProblems(std::ostream& err, const model::Problems& problems)
{
    for (const auto& p : problems.items())
        err << "error: " << p.text() << "\n";
    return !problems.empty();
}

void emitResult(const Args& args, std::ostream& out, const std::string& json, const std::function<void()>& printText)
{
    if (args.flag("--json"))
        out << json;
    else
        printText();
    if (auto path = args.value("--out"))
        model::writeFileAtomically(*path, json);
}

void writeOutputFile(const std::string& path, const std::function<void(std::ostream&)>& write)
{
    (void)model::checkOutputTarget(path); // refused before the content is built
    std::ostringstream content;
    write(content);
    model::writeFileAtomically(path, content.str());
}

} // namespace cli
