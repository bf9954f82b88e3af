// SPDX-License-Identifier: GPL-3.0-or-later
#include "rl_train_internal.h"

namespace policies::rl {

using detail::Json;

std::uint64_t trainingDaySeed(std::uint64_t seed, int day)
{
    return 1000000ULL + 100000ULL * seed + static_cast<std::uint64_t>(day);
}

std::uint64_t validationDaySeed(int i)
{
    return 900001ULL + static_cast<std::uint64_t>(i);
}

TrainResult train(const TrainEnvironment& env, const TrainSettings& settings, const std::filesystem::path& checkpoint,
                  const std::filesystem::path& out, const std::function<void(const TrainProgress&)>& progress,
                  const std::atomic<bool>* stop)
{
    if (settings.policy != "smart-mig" && settings.policy != "dynamic-rl")
        throw PolicyError("cannot train '" + settings.policy + "' (valid: smart-mig, dynamic-rl)");
    if (settings.days < 1 || settings.days > 99999)
        throw std::invalid_argument("days must be 1..99999");
    TrainSettings st = settings;
    Json prov = Json::parse(st.provenanceJson, nullptr, false);
    if (!prov.is_object())
        prov = Json::object();
    prov["settings"] = st.policy == "smart-mig" ? detail::ppoSettingsJson(st) : detail::qSettingsJson(st);
    st.provenanceJson = prov.dump();
    detail::Session ses{st, checkpoint, progress, stop};
    TrainResult r =
        st.policy == "smart-mig" ? detail::trainSmartMig(env, st, ses, out) : detail::trainDynamic(env, st, ses, out);
    r.daysDone = ses.daysDone;
    r.bestEvalEt = ses.bestEt;
    r.baselineEt = ses.baseline;
    r.wallS = ses.elapsed();
    return r;
}

} // namespace policies::rl