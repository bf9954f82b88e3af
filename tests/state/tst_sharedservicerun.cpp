// SPDX-License-Identifier: GPL-3.0-or-later
// The run of a scenario under its own autoscaler shared by the workspace and the Services page
// (ui/state/sharedservicerun.h, docs/services.md "In the studio"): one run per scenario object,
// a waiter that gets the owner's result, and one that runs it itself when the owner was cancelled.
#include "sharedservicerun.h"

#include <QTest>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>

class TestSharedServiceRun : public QObject
{
    Q_OBJECT

private slots:
    void secondAskerWaitsForTheFirstsRun();
    void anotherScenarioRunsApart();
    void cancelledOwnerLeavesTheRunToTheWaiter();
    void waiterStopsWhenCancelled();
};

namespace {

model::ServiceRunResult named(const std::string& who)
{
    model::ServiceRunResult r;
    r.autoscaler = who;
    return r;
}

} // namespace

void TestSharedServiceRun::secondAskerWaitsForTheFirstsRun()
{
    const auto scenario = std::make_shared<const model::Scenario>();
    const std::atomic<bool> cancel{false};
    std::atomic<int> runs{0};
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<bool> ownerStarted{false};
    auto owner = std::async(std::launch::async, [&] {
        return ui::SharedServiceRun::get(scenario, cancel, [&] {
            ++runs;
            ownerStarted = true;
            released.wait();
            return named("owner");
        });
    });
    while (!ownerStarted)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    auto waiter = std::async(std::launch::async, [&] {
        return ui::SharedServiceRun::get(scenario, cancel, [&] {
            ++runs;
            return named("waiter");
        });
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    release.set_value();
    const auto a = owner.get();
    const auto b = waiter.get();
    QCOMPARE(runs.load(), 1); // the day was simulated once
    QCOMPARE(a.get(), b.get());
    QCOMPARE(b->autoscaler, std::string("owner"));
    // Asked again after it finished: the kept result, no run.
    const auto c = ui::SharedServiceRun::get(scenario, cancel, [&] {
        ++runs;
        return named("late");
    });
    QCOMPARE(runs.load(), 1);
    QCOMPARE(c->autoscaler, std::string("owner"));
}

void TestSharedServiceRun::anotherScenarioRunsApart()
{
    const auto one = std::make_shared<const model::Scenario>();
    const auto other = std::make_shared<const model::Scenario>(); // an edit: another object
    const std::atomic<bool> cancel{false};
    const auto a = ui::SharedServiceRun::get(one, cancel, [] { return named("one"); });
    const auto b = ui::SharedServiceRun::get(other, cancel, [] { return named("other"); });
    QCOMPARE(a->autoscaler, std::string("one"));
    QCOMPARE(b->autoscaler, std::string("other"));
}

void TestSharedServiceRun::cancelledOwnerLeavesTheRunToTheWaiter()
{
    const auto scenario = std::make_shared<const model::Scenario>();
    const std::atomic<bool> cancel{false};
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<bool> ownerStarted{false};
    auto owner = std::async(std::launch::async, [&] {
        return ui::SharedServiceRun::get(scenario, cancel, [&]() -> model::ServiceRunResult {
            ownerStarted = true;
            released.wait();
            throw model::Cancelled(); // e.g. the workspace's run superseded by a newer request
        });
    });
    while (!ownerStarted)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    auto waiter = std::async(std::launch::async, [&] {
        return ui::SharedServiceRun::get(scenario, cancel, [] { return named("waiter"); });
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    release.set_value();
    QVERIFY_THROWS_EXCEPTION(model::Cancelled, owner.get());
    QCOMPARE(waiter.get()->autoscaler, std::string("waiter"));
}

void TestSharedServiceRun::waiterStopsWhenCancelled()
{
    const auto scenario = std::make_shared<const model::Scenario>();
    const std::atomic<bool> running{false};
    std::atomic<bool> cancelWaiter{false};
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<bool> ownerStarted{false};
    auto owner = std::async(std::launch::async, [&] {
        return ui::SharedServiceRun::get(scenario, running, [&] {
            ownerStarted = true;
            released.wait();
            return named("owner");
        });
    });
    while (!ownerStarted)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    auto waiter = std::async(std::launch::async, [&] {
        return ui::SharedServiceRun::get(scenario, cancelWaiter, [] { return named("waiter"); });
    });
    cancelWaiter = true; // a newer edit: the page stops waiting without the owner's result
    QVERIFY_THROWS_EXCEPTION(model::Cancelled, waiter.get());
    release.set_value();
    QCOMPARE(owner.get()->autoscaler, std::string("owner"));
}

QTEST_GUILESS_MAIN(TestSharedServiceRun)
#include "tst_sharedservicerun.moc"
