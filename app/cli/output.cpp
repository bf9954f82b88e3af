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

void checkOutputOptions(const std::vector<std::string>& words)
{
    for (size_t i = 0; i < words.size(); ++i) {
        for (const std::string option : {"--out", "--jobs-out", "--workload-out", "--apply-to", "--text"}) {
            if (words[i] == option && i + 1 < words.size())
                (void)model::checkOutputTarget(words[i + 1]);
            else if (words[i].rfind(option + "=", 0) == 0)
                (void)model::checkOutputTarget(words[i].substr(option.size() + 1));
        }
    }
}

} // namespace cli
