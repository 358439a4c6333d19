// The viewer's logic without a window: search, selection, navigation, range statistics and the
// key script parser. Links the viewer library but creates no GL context.
#include <GLFW/glfw3.h>
#include <doctest/doctest.h>
#include <imgui.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "base/Colors.hpp"
#include "shell/KeyReleaseHold.hpp"
#include "shell/KeyScript.hpp"
#include "base/LayoutSettings.hpp"
#include "base/SettingsFolder.hpp"
#include "TestSupport.hpp"
#include "panels/RangeStatsPanel.hpp"
#include "panels/SearchPanel.hpp"
#include "panels/TextWrap.hpp"
#include "timeline/RulerTicks.hpp"
#include "timeline/SearchIndex.hpp"
#include "timeline/ValueFormat.hpp"
#include "timeline/TimelineView.hpp"
#include "views/FigureSourceList.hpp"
#include "views/OperatorsView.hpp"

using namespace marey;
using namespace marey::test;

namespace {

const char* kTrace = R"([
  {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "Python"}},
  {"ph": "X", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
  {"ph": "X", "name": "aten::matmul", "pid": 1, "tid": 1, "ts": 10, "dur": 30},
  {"ph": "X", "name": "aten::add", "pid": 1, "tid": 1, "ts": 50, "dur": 20},
  {"ph": "X", "name": "Launch, \"quoted\"", "pid": 1, "tid": 1, "ts": 12, "dur": 5},
  {"ph": "X", "name": "MatMul_0", "pid": 2, "tid": 7, "ts": 45, "dur": 40},
  {"ph": "s", "cat": "HostToDevice", "id": "99", "name": "h2d", "pid": 1, "tid": 1, "ts": 13},
  {"ph": "f", "cat": "HostToDevice", "id": "99", "name": "h2d", "pid": 2, "tid": 7, "ts": 45, "bp": "e"}])";

}  // namespace

// [SECTION] Search, selection, range statistics, keys

TEST_CASE("search matches names case-insensitively and lists matches in time order") {
    auto model = LoadJson(kTrace);
    SearchIndex search;
    search.Run(*model, "MATMUL");
    CHECK(search.Count() == 2);
    REQUIRE(search.Matches().size() == 2);
    CHECK(search.Matches()[0].startNs == 10000);
    CHECK(search.Matches()[1].startNs == 45000);
    CHECK(search.FirstAtOrAfter(20000) == 1);
    CHECK(search.FirstAtOrAfter(90000) == 0);  // wraps
    search.Run(*model, "no such name");
    CHECK(search.Count() == 0);
    CHECK(search.Active());
    search.Run(*model, "");
    CHECK_FALSE(search.Active());
}

TEST_CASE("selection knows its parent, children, self time and flows' far ends") {
    auto model = LoadJson(kTrace);
    TimelineView view(*model);
    SearchIndex search;
    search.Run(*model, "aten::matmul");
    const SliceRef matmul = search.Matches()[0].slice;
    view.Select(matmul, true);
    CHECK(view.state().selected == matmul);
    // Framing shows the slice with a margin.
    CHECK(view.state().viewStartNs < 10000);
    CHECK(view.state().viewEndNs > 40000);
    CHECK(view.state().viewEndNs - view.state().viewStartNs < 40000);
    const SliceRef parent = view.Parent(matmul);
    REQUIRE(parent.valid());
    CHECK(model->Name(view.SliceName(parent)) == "ProfilerStep#1");
    const auto children = view.Children(parent, 10);
    CHECK(children.size() == 2);
    CHECK(view.SelfTime(parent) == 50000);
    CHECK(view.SelfTime(matmul) == 25000);
    const Flow& flow = model->flows[0];
    const SliceRef source = view.EnclosingSlice(model->FlowFromTrack(flow), flow.fromTs);
    CHECK(model->Name(view.SliceName(source)) == "Launch, \"quoted\"");
    const SliceRef target = view.EnclosingSlice(model->FlowToTrack(flow), flow.toTs);
    CHECK(model->Name(view.SliceName(target)) == "MatMul_0");
}

TEST_CASE("show all frames the whole trace and ranges keep a small margin") {
    auto model = LoadJson(kTrace);
    TimelineView view(*model);
    view.ShowAll();
    CHECK(view.state().viewStartNs <= 0);
    CHECK(view.state().viewEndNs >= 100000);
    view.ShowRange(20000, 30000, false);
    CHECK(view.state().viewStartNs == 20000);
    CHECK(view.state().viewEndNs == 30000);
}

TEST_CASE("range statistics copy as CSV with quoting") {
    auto model = LoadJson(kTrace);
    const RangeStatsResult stats =
        ComputeRangeStats(*model, AllSliceTracks(*model), model->firstNs, model->firstNs + 20000);
    const std::string csv = RangeStatsPanel::ToCsv(*model, stats);
    CHECK(csv.rfind(
              "name,count,total_ns,in_range_ns,self_ns,average_ns,min_ns,max_ns,share_of_range\n",
              0) == 0);
    CHECK(csv.find("\"Launch, \"\"quoted\"\"\",1,5000,5000,5000,5000,5000,5000,0.250000\n") !=
          std::string::npos);
    // A step longer than the range: its whole 100 µs under Total, the 20 µs inside the range
    // under In range, and the share made from the time in range.
    CHECK(csv.find("ProfilerStep#1,1,100000,20000,50000,100000,100000,100000,1.000000\n") !=
          std::string::npos);
}

TEST_CASE("key scripts name letters and special keys, and refuse unknown names") {
    KeyScript script;
    std::string error;
    CHECK(script.Parse("WWSD{Home}f", &error));
    CHECK_FALSE(script.Empty());
    CHECK_FALSE(script.Parse("W{Nope}", &error));
    CHECK(error == "unknown key name {Nope} in --keys");
    CHECK_FALSE(script.Parse("W-", &error));
    CHECK(script.Parse("{Click 110,243}{DoubleClick 5,6}W", &error));
    CHECK_FALSE(script.Parse("{Click here}", &error));
    CHECK(error == "{Click here} in --keys needs a place: {Click X,Y}");
}

TEST_CASE("a quick chord is seen whole: releases in a frame where a key was pressed wait") {
    KeyReleaseHold hold;
    // Ctrl down in one frame; in the next, 3 down and Ctrl up (a tool's or a quick hand's
    // Ctrl+3): Ctrl's release waits, so the frame sees Ctrl and 3 down together.
    CHECK_FALSE(hold.Hold(GLFW_KEY_LEFT_CONTROL, 37, GLFW_PRESS, 0));
    CHECK(hold.StartFrame().empty());
    CHECK_FALSE(hold.Hold(GLFW_KEY_3, 12, GLFW_PRESS, GLFW_MOD_CONTROL));
    CHECK(hold.Hold(GLFW_KEY_LEFT_CONTROL, 37, GLFW_RELEASE, GLFW_MOD_CONTROL));
    CHECK(hold.Hold(GLFW_KEY_3, 12, GLFW_RELEASE, 0));
    CHECK(hold.Holding());
    const std::vector<KeyRelease> released = hold.StartFrame();  // the frame after
    REQUIRE(released.size() == 2);
    CHECK(released[0].key == GLFW_KEY_LEFT_CONTROL);
    CHECK(released[1].key == GLFW_KEY_3);
    CHECK_FALSE(hold.Holding());
    // A frame without a press passes its releases on at once; a repeat is no press.
    CHECK_FALSE(hold.Hold(GLFW_KEY_W, 25, GLFW_REPEAT, 0));
    CHECK_FALSE(hold.Hold(GLFW_KEY_W, 25, GLFW_RELEASE, 0));
}

TEST_CASE(
    "an operator picked in the operator view highlights exactly its slices, not names that contain "
    "it") {
    auto model = LoadJson(kTrace);
    SearchIndex search;
    search.RunNames(*model, {"MatMul_0", "NotInTheTrace"}, "MatMul");
    CHECK(search.Active());
    CHECK(search.Query() == "MatMul");
    REQUIRE(search.Count() == 1);
    const SliceRef match = search.Matches()[0].slice;
    CHECK(model->Name(model->tracks[match.track].rows[match.row].name[match.index]) == "MatMul_0");
    search.Run(*model, "matmul");  // the substring search finds aten::matmul too
    CHECK(search.Count() == 2);
}

TEST_CASE(
    "the operator filter keeps fuzzy matches, best first, and everything for an empty pattern") {
    std::vector<OperatorStat> stats(4);
    stats[0].name = "MatMulV2";
    stats[1].name = "FlashAttentionScore";
    stats[2].name = "TransData";
    stats[3].name = "aten::batch_matmul_backward_fused";
    CHECK(OperatorsView::Filter(stats, "") == std::vector<size_t>{0, 1, 2, 3});
    CHECK(OperatorsView::Filter(stats, "fas") == std::vector<size_t>{1});
    CHECK(OperatorsView::Filter(stats, "matmul") == std::vector<size_t>{0, 3});
    CHECK(OperatorsView::Filter(stats, "zzz").empty());
}

TEST_CASE("slice references carry their document, and a timeline refuses another document's") {
    auto model = LoadJson(kTrace);
    TimelineView timeline(*model, 7);
    SearchIndex search;
    search.Run(*model, "matmul", timeline.documentId());
    REQUIRE(search.Count() == 2);
    const SliceRef own = search.Matches()[0].slice;
    CHECK(own.document == 7);
    timeline.Select(own, false);
    CHECK(timeline.state().selected == own);
    CHECK(timeline.Parent(own).document == 7);
    SliceRef foreign = own;
    foreign.document = 3;  // the same indexes, into another document's model
    CHECK_FALSE(foreign == own);
    timeline.Select(foreign, false);
    CHECK(timeline.state().selected == own);
}

// [SECTION] Timeline navigation, ruler, labels, search

TEST_CASE("zoom-out and panning stop at the trace with a 5 % margin") {
    auto model = LoadJson(kTrace);
    TimelineView timeline(*model);
    const double span = static_cast<double>(model->lastNs - model->firstNs);
    timeline.ShowRange(-1e12, 1e12, false);  // far wider than the trace, mostly before it
    CHECK(timeline.state().viewStartNs == doctest::Approx(-0.05 * span));
    CHECK(timeline.state().viewEndNs == doctest::Approx(1.05 * span));
    timeline.ShowRange(5.0 * span, 5.0 * span + 40.0, false);  // narrow, far past the end
    CHECK(timeline.state().viewEndNs == doctest::Approx(1.05 * span));
    CHECK(timeline.state().viewEndNs - timeline.state().viewStartNs == doctest::Approx(40.0));
    timeline.ShowRange(-5.0 * span, -5.0 * span + 40.0, false);  // and far before the start
    CHECK(timeline.state().viewStartNs == doctest::Approx(-0.05 * span));
}

namespace {

// What a label says, in ns: "131 ms" → 131e6, "+20 ns" → 20, "0" → 0.
double LabelNs(const std::string& label) {
    double value = 0;
    char unit[8] = {};
    if (label == "0") return 0;
    REQUIRE(std::sscanf(label.c_str(), "%lf %7s", &value, unit) == 2);
    const std::string u = unit;
    return value * (u == "s" ? 1e9 : u == "ms" ? 1e6 : u == "µs" ? 1e3 : 1.0);
}

float EightPxPerChar(const std::string& text) {
    return 8.0f * static_cast<float>(text.size());
}

}  // namespace

TEST_CASE("ruler labels say their tick's time, and only labels that fit whole are shown") {
    SUBCASE("a view starting just before 131 ms: the left label is not clipped into '1000 µs'") {
        const RulerLayout ruler = LayoutRuler(130.99e6, 131.99e6, 1000, 90, EightPxPerChar);
        CHECK_FALSE(ruler.fromAnchor);
        int shown = 0;
        for (const RulerTick& tick : ruler.ticks) {
            if (tick.label.empty()) continue;
            CHECK(LabelNs(tick.label) == doctest::Approx(tick.ns));
            if (!tick.labelled) continue;
            ++shown;
            CHECK(tick.x + 3.0f >= 0.0f);
            CHECK(tick.x + 3.0f + EightPxPerChar(tick.label) <= 1000.0f);
        }
        CHECK(shown >= 5);
    }
    SUBCASE("a label that would run past the right edge is not shown") {
        const RulerLayout ruler = LayoutRuler(0, 1e6, 1000, 90, EightPxPerChar);
        for (const RulerTick& tick : ruler.ticks)
            if (!tick.label.empty() && tick.x + 3.0f + EightPxPerChar(tick.label) > 1000.0f)
                CHECK_FALSE(tick.labelled);
    }
    SUBCASE("deep zoom far into a long trace counts from an anchor, in short labels") {
        const double start = 131000123.0;  // 131 ms, a 2 µs view
        const RulerLayout ruler = LayoutRuler(start, start + 2000, 1000, 90, EightPxPerChar);
        REQUIRE(ruler.fromAnchor);
        CHECK(ruler.anchorNs >= start);
        CHECK(LabelNs(ruler.anchorLabel) == doctest::Approx(ruler.anchorNs));
        CHECK(ruler.anchorLabel == "131.0002 ms");
        for (const RulerTick& tick : ruler.ticks) {
            if (tick.label.empty()) continue;
            CHECK(tick.label.size() <= 9);
            const double offset =
                tick.label[0] == '-' ? -LabelNs(tick.label.substr(1)) : LabelNs(tick.label);
            CHECK(offset == doctest::Approx(tick.ns - ruler.anchorNs));
        }
    }
    SUBCASE("the cursor's time has the precision of a pixel") {
        CHECK(CursorLabel(131000123.0, 2.0) == "131.000123 ms");
        CHECK(CursorLabel(1.5e9, 1e6) == "1.500 s");
    }
}

TEST_CASE("times on the ruler read in one unit with the decimals the zoom needs") {
    SUBCASE("the cursor at a 20 ns view shows the ns, not a rounded 184 ms") {
        CHECK(CursorLabel(183930595.0, 0.02) == "183.930595 ms");
        CHECK(CursorLabel(183930595.0, 2.0) == "183.930595 ms");
        CHECK(CursorLabel(183930595.0, 100.0) == "183.9306 ms");
        CHECK(CursorLabel(183930595.0, 420000.0) == "183.9 ms");
        CHECK(CursorLabel(40.0, 0.5) == "40 ns");
    }
    SUBCASE("plain tick labels use the view's unit: ms with decimals, not 141056 µs") {
        CHECK(TickLabel(141056000.0, 2000.0, 142e6) == "141.056 ms");
        CHECK(TickLabel(139000000.0, 2000.0, 142e6) == "139.000 ms");
        CHECK(TickLabel(0.0, 5e7, 4.2e8) == "0 ms");
        CHECK(TickLabel(1.5e9, 5e8, 2e9) == "1.5 s");
        CHECK(TickLabel(700.0, 100.0, 900.0) == "700 ns");
        const RulerLayout ruler = LayoutRuler(139e6, 141.5e6, 1000, 90, EightPxPerChar);
        REQUIRE_FALSE(ruler.fromAnchor);
        std::vector<std::string> labels;
        for (const RulerTick& tick : ruler.ticks)
            if (!tick.label.empty()) labels.push_back(tick.label);
        REQUIRE(labels.size() >= 3);
        CHECK(labels[0] == "139.0 ms");
        CHECK(labels[1] == "139.5 ms");
    }
    SUBCASE("the view's width has three significant digits: 420 ms, never 0 s") {
        CHECK(CompactDuration(419876543) == "420 ms");
        CHECK(CompactDuration(1234567890) == "1.23 s");
        CHECK(CompactDuration(20) == "20 ns");
    }
    SUBCASE("a wall clock only for epoch times; else the view's edge on the trace's axis") {
        CHECK(ClockText(1736408883688177930ll, 0.0, 1000.0) == "2025-01-09 07:48:03.688177930 UTC");
        CHECK(ClockText(-39972307, 0.0, 420000.0) == "from the start");
        CHECK(ClockText(-39972307 + 12345678, 12345678.0, 1000.0) == "from 12.346 ms");
    }
}

TEST_CASE("a call stack wraps between frames and before path separators, never inside a name") {
    auto eight = [](std::string_view text) { return 8.0f * static_cast<float>(text.size()); };
    const std::string stack =
        "/home/u/.local/lib/python3.9/site-packages/torch/_utils.py(180): _rebuild_tensor;\r\n"
        "/usr/lib/python3.9/queues.py(122): get";
    // 30 characters a line.
    const std::vector<std::string> lines = WrapAtSeparators(stack, 240.0f, eight);
    const std::vector<std::string> expected = {"/home/u/.local/lib/python3.9",
                                               "/site-packages/torch",
                                               "/_utils.py(180):",
                                               "_rebuild_tensor;",
                                               "/usr/lib/python3.9",
                                               "/queues.py(122): get"};
    CHECK(lines == expected);
    // Wide enough: one line per frame, '\r' dropped.
    const std::vector<std::string> wide = WrapAtSeparators(stack, 1000.0f, eight);
    REQUIRE(wide.size() == 2);
    CHECK(wide[1] == "/usr/lib/python3.9/queues.py(122): get");
    // A name wider than the panel is the only thing broken inside.
    CHECK(WrapAtSeparators("abcdefghij", 32.0f, eight) ==
          std::vector<std::string>{"abcd", "efgh", "ij"});
}

TEST_CASE("a long path is cut in its middle to fit, keeping more of its end") {
    auto eight = [](std::string_view text) {
        size_t characters = 0;  // "…" is three bytes and one character
        for (const char c : text) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        return 8.0f * static_cast<float>(characters);
    };
    CHECK(ElideMiddle("/short", 100.0f, eight) == "/short");
    const std::string elided = ElideMiddle("/data/profiles/fixtures/real/level1", 80.0f, eight);
    CHECK(eight(elided) <= 80.0f);
    CHECK(elided == "/da\xE2\x80\xA6level1");
    CHECK(ElideMiddle("abcdef", 4.0f, eight) == "\xE2\x80\xA6");
}

TEST_CASE("names cut to fit keep the end that tells them apart, and whole underscores") {
    auto eight = [](std::string_view text) {
        size_t characters = 0;
        for (const char c : text) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        return 8.0f * static_cast<float>(characters);
    };
    // Four collectives that an end cut showed as one "hcom_allReduce_…".
    std::set<std::string> shown;
    for (const char* name : {"hcom_allReduce__586_0_1", "hcom_allReduce__586_1_1",
                             "hcom_allReduce__607_0_1", "hcom_allReduce__607_1_1"}) {
        const std::string cut = ElideMiddle(name, 14 * 8.0f, eight);
        CHECK(eight(cut) <= 14 * 8.0f);
        CHECK(cut.find("\xE2\x80\xA6") != std::string::npos);
        shown.insert(cut);
    }
    CHECK(shown.size() == 4);
}

TEST_CASE("text elided to nothing is an empty string, never a null pointer ImGui would read") {
    std::string scratch;
    const std::string_view nothing = ElideToWidth(std::string_view(), 100.0f, scratch);
    CHECK(nothing.empty());
    CHECK(nothing.data() != nullptr);
}

TEST_CASE("a selected table row is brighter than a hovered one") {
    ImGuiContext* previous = ImGui::GetCurrentContext();
    ImGuiContext* context = ImGui::CreateContext();
    ImGui::SetCurrentContext(context);
    ApplyViewerStyle();
    const auto light = [](ImGuiCol color) {
        const ImVec4 c = ImGui::GetStyle().Colors[color];
        return 0.299f * c.x + 0.587f * c.y + 0.114f * c.z;
    };
    CHECK(light(ImGuiCol_Header) > light(ImGuiCol_HeaderHovered));
    CHECK(light(ImGuiCol_HeaderHovered) > light(ImGuiCol_WindowBg));
    ImGui::DestroyContext(context);
    ImGui::SetCurrentContext(previous);
}

TEST_CASE("an operator highlighted from another view brings the timeline to its first match") {
    auto model = LoadJson(kTrace);
    TimelineView timeline(*model);
    timeline.ShowRange(0, 5000, false);  // somewhere else: the match at 45 µs is not in view
    SearchPanel panel;
    panel.SetNames(timeline, {"MatMul_0"}, "MatMul_0");
    for (int i = 0; i < 10000 && (panel.Searching() || !timeline.search().Active()); ++i) {
        panel.TakeFinished(timeline);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    REQUIRE(timeline.search().Count() == 1);
    const SliceRef match = timeline.search().Matches()[0].slice;
    CHECK(timeline.state().selected == match);
    const double start = static_cast<double>(timeline.SliceStart(match) - model->firstNs);
    CHECK(timeline.state().viewStartNs <= start);
    CHECK(timeline.state().viewEndNs >= start);
}

TEST_CASE("Enter pressed while the search still runs steps once the matches are in") {
    auto model = LoadJson(kTrace);
    TimelineView timeline(*model);
    SearchPanel panel;
    panel.SetNames(timeline, {"aten::matmul", "MatMul_0"}, "matmul", false);
    REQUIRE(panel.Searching());
    const TimeNs viewStart = model->firstNs + static_cast<TimeNs>(timeline.state().viewStartNs);
    panel.Step(timeline, true);  // two Enters before the matches are known
    panel.Step(timeline, true);
    CHECK_FALSE(timeline.state().selected.valid());
    for (int i = 0; i < 10000 && panel.Searching(); ++i) {
        panel.TakeFinished(timeline);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    REQUIRE(timeline.search().Count() == 2);
    // The first Enter goes to the first match at or after the view's start (the order a person
    // reads the timeline in), the second to the next one.
    const ViewState& state = timeline.state();
    const size_t first = timeline.search().FirstAtOrAfter(viewStart);
    REQUIRE(state.selected.valid());
    CHECK(state.selected == timeline.search().Matches()[(first + 1) % 2].slice);
    CHECK(panel.TakeJumped());
}

TEST_CASE(
    "settings kept under the old name are copied to marey's folder once, and never over newer "
    "ones") {
    const std::filesystem::path home = TempDir("settings-home");
    std::filesystem::create_directories(home / ".config/tracelens");
    std::ofstream(home / ".config/tracelens/layout.txt") << "header_width 333\n";
    const std::string path = SettingsFilePath(home.string(), "layout.txt");
    CHECK(path == (home / ".config/marey/layout.txt").string());
    CHECK(LayoutSettings::Load(path).headerWidth == 333);
    std::ofstream(path) << "header_width 222\n";
    CHECK(LayoutSettings::Load(SettingsFilePath(home.string(), "layout.txt")).headerWidth == 222);
    CHECK_FALSE(std::filesystem::exists(SettingsFilePath(home.string(), "recent.txt")));
    CHECK(std::filesystem::exists(
        home / ".config/tracelens/layout.txt"));  // the old file is left as it was
    std::filesystem::remove_all(home);
}

// [SECTION] Layout settings, counters, comparison halves, figure lists

TEST_CASE("a small window narrows the side panel to a share, a wide one keeps the width set") {
    LayoutSettings layout;  // 580 px
    CHECK(layout.SidePanelWidthFor(1904) == 580);
    const float small = layout.SidePanelWidthFor(1008);  // a 1024 px window
    CHECK(small < 580);
    CHECK(small <= 1008 * LayoutSettings::kNarrowPanelShare + 0.5f);  // the timeline's width first
    CHECK(layout.SidePanelWidthFor(1400) <= 1400 * (1 - LayoutSettings::kMinTimelineShare) + 0.5f);
    CHECK(layout.SidePanelWidthFor(300) == LayoutSettings::kMinSidePanelWidth);
    CHECK(layout.sidePanelWidth == 580);  // what was set comes back when the window widens
}

TEST_CASE("layout settings come back as saved, and bad or missing values keep the defaults") {
    const std::string path = "/tmp/marey-layout-test-" + std::to_string(::getpid()) + "/layout.txt";
    LayoutSettings saved;
    saved.windowWidth = 1234;
    saved.windowHeight = 777;
    saved.sidePanelWidth = 512;
    saved.sidePanelShown = false;
    saved.headerWidth = 333;
    REQUIRE(saved.Save(path));
    const LayoutSettings loaded = LayoutSettings::Load(path);
    CHECK(loaded.windowWidth == 1234);
    CHECK(loaded.windowHeight == 777);
    CHECK(loaded.sidePanelWidth == 512);
    CHECK_FALSE(loaded.sidePanelShown);
    CHECK(loaded.headerWidth == 333);
    {
        std::ofstream out(path);
        out << "side_panel_width 5\nheader_width banana\nwindow_width 99999\nsomething_else 3\n";
    }
    const LayoutSettings defaults = LayoutSettings::Load(path);
    CHECK(defaults.sidePanelWidth == LayoutSettings().sidePanelWidth);
    CHECK(defaults.headerWidth == LayoutSettings().headerWidth);
    CHECK(defaults.windowWidth == 0);
    CHECK(LayoutSettings::Load("/nonexistent/layout.txt").sidePanelShown);
    std::filesystem::remove_all(std::filesystem::path(path).parent_path());
}

TEST_CASE("counter values read with units, and narrow columns get three significant digits") {
    CHECK(CounterValueText(2164456, "KB") == "2.06 GB");  // the real sample's HBM: 2,216,402,944 B
    CHECK(CounterValueText(1536, "KB") == "1.50 MB");
    CHECK(CounterValueText(512, "B") == "512 B");
    CHECK(CounterValueText(1800, "MHz") == "1800 MHz");
    CHECK(CounterValueText(123456789, "") == "123 M");
    CHECK(CounterValueText(0.5, "") == "0.5");
    CHECK(CompactDuration(3729000) == "3.73 ms");
    CHECK(CompactDuration(123456) == "123 µs");
    CHECK(CompactDuration(12) == "12 ns");
    CHECK(CompactDuration(45678) == "45.7 µs");
}

TEST_CASE(
    "a jump along a flow keeps the zoom when the target fits, and centres it with context around") {
    auto model = LoadJson(kTrace);
    TimelineView timeline(*model);
    const Flow& flow = model->flows[0];
    const SliceRef target = timeline.EnclosingSlice(model->FlowToTrack(flow), flow.toTs);
    REQUIRE(target.valid());
    timeline.ShowRange(0, 100000, false);  // 100 µs wide; the 40 µs target fits
    timeline.Reveal(target);
    CHECK(timeline.state().selected == target);
    const ViewState& view = timeline.state();
    CHECK(view.viewEndNs - view.viewStartNs == doctest::Approx(100000));
    const double start = static_cast<double>(timeline.SliceStart(target) - model->firstNs);
    const double end = static_cast<double>(timeline.SliceEnd(target) - model->firstNs);
    CHECK(start > view.viewStartNs);
    CHECK(end < view.viewEndNs);
    timeline.ShowRange(0, 1000, false);  // too narrow: zoomed out to the target with context around
    timeline.Reveal(target);
    CHECK(timeline.state().viewStartNs < start);
    CHECK(timeline.state().viewEndNs > end);
    CHECK(timeline.state().viewEndNs - timeline.state().viewStartNs > 1.5 * (end - start));
}

TEST_CASE("a comparison's half folds the host processes to show the device, and finds a run") {
    auto model = LoadJson(R"([
{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "Python"}},
{"ph": "M", "name": "process_labels", "pid": 1, "args": {"labels": "CPU"}},
{"ph": "M", "name": "process_name", "pid": 2, "args": {"name": "Ascend Hardware"}},
{"ph": "M", "name": "process_labels", "pid": 2, "args": {"labels": "NPU"}},
{"ph": "X", "name": "train", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
{"ph": "X", "name": "step", "pid": 1, "tid": 1, "ts": 1, "dur": 90},
{"ph": "X", "name": "MatMul_0", "pid": 2, "tid": 7, "ts": 10, "dur": 5},
{"ph": "X", "name": "MatMul_0", "pid": 2, "tid": 7, "ts": 40, "dur": 5}])");
    TimelineView view(*model, 3);
    CHECK(view.FoldHostProcesses(1000.0f) == 1);  // Python, however short: a device is there
    CHECK(view.FoldHostProcesses(1000.0f) == 0);
    const SliceRef run = view.FindSliceNear("MatMul_0", model->firstNs + 39990, 100);
    REQUIRE(run.valid());
    CHECK(view.SliceStart(run) == model->firstNs + 40000);
    CHECK(run.document == 3);
    CHECK_FALSE(view.FindSliceNear("MatMul_0", model->firstNs + 25000, 100).valid());
    CHECK_FALSE(view.FindSliceNear("NotThere", model->firstNs + 10000, 100).valid());
}

TEST_CASE("a clicked launch-delay figure lists its kernels, and a row zooms to launch and kernel") {
    // Kernel "late" starts 300 µs after its launch (100-110) ends; "early" 10 µs after.
    auto model = LoadJson(R"([
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 100, "dur": 10, "args": {"correlation": 1}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 120, "dur": 10, "args": {"correlation": 2}},
{"ph": "X", "cat": "kernel", "name": "early", "pid": 0, "tid": 7, "ts": 140, "dur": 20, "args": {"correlation": 2}},
{"ph": "X", "cat": "kernel", "name": "late", "pid": 0, "tid": 7, "ts": 410, "dur": 40, "args": {"correlation": 1}}])");
    const TraceAnalyses analyses = AnalyzeTrace(*model, {});
    REQUIRE(analyses.ranks.size() == 1);
    const RankTraceAnalysis& rank = analyses.ranks[0];
    FigureSourceList list;
    FigureSource source;
    source.kind = FigureSource::kDelayOutliers;
    list.Build(analyses, *model, {rank.group, kNoStep}, rank.all, source);
    REQUIRE(list.rows().size() == 1);
    CHECK(list.rows()[0].name == "late");
    CHECK(list.rows()[0].valueNs == 300'000);
    CHECK(std::string(list.valueHeader()) == "Launch delay");
    TimelineRequest request;
    list.ZoomTo(0, request);
    CHECK(request.kind == TimelineRequest::kShowRange);
    CHECK(request.switchToTimeline);
    CHECK(request.startNs == 100'000);  // the launch's start
    CHECK(request.endNs == 450'000);    // the kernel's end
    CHECK(list.chosen() == 0);
    // The kernel's stream is brought on screen with the range.
    REQUIRE(request.track);
    CHECK(*request.track == analyses.activities.streams[0].track);

    // The gap on stream 7 (160-410 µs, launched long before: "other") as a list of one interval.
    source = FigureSource{};
    source.kind = FigureSource::kGaps;
    source.stream = 0;
    source.gap = GapKind::kOther;
    list.Build(analyses, *model, {rank.group, kNoStep}, rank.all, source);
    REQUIRE(list.rows().size() == 1);
    CHECK(list.rows()[0].startNs == 160'000);
    CHECK(list.rows()[0].endNs == 410'000);
    CHECK(list.title() == "Other of Thread 7 (device 0)");  // no thread name in the trace
    CHECK(list.rows()[0].track == analyses.activities.streams[0].track);
}

TEST_CASE(
    "a generated GPU trace gets its device counters and host-wait marks, the model untouched") {
    const std::string path = TempDir("device_counters").string() + "/gpu_trace.json";
    int status = -1;
    RunCommand(std::string(MAREY_GEN) + " --gpu-trace " + path + " --steps 3 2>&1", &status);
    REQUIRE(status == 0);
    std::ifstream file(path);
    const std::string json((std::istreambuf_iterator<char>(file)),
                           std::istreambuf_iterator<char>());
    auto model = LoadJson(json);
    REQUIRE(model);
    const size_t tracks = model->tracks.size();
    const TraceAnalyses analyses = AnalyzeTrace(*model, {});
    auto data = std::make_shared<const TimelineData>(BuildTimelineData(*model, &analyses));
    // The generator runs kernels and copies on stream 7, NCCL kernels on stream 20, and three
    // steps with one host-to-device and one device-to-device copy each.
    const std::vector<DeviceCounterSeries>& series = data->deviceCounters;
    REQUIRE(series.size() == 4);
    CHECK(series[0].name == "Queue length · stream 7");
    CHECK(series[1].name == "Queue length · stream 20");
    CHECK(series[2].name == "Memcpy bandwidth · HtoD");
    CHECK(series[3].name == "Memcpy bandwidth · DtoD");
    std::vector<uint32_t> all(analyses.activities.activities.size());
    for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    const std::vector<StreamQueue> queues = MeasureQueues(analyses.activities, all, true);
    REQUIRE(queues.size() == 2);
    CHECK(series[0].timeNs.size() == queues[0].samples.size());
    CHECK(series[1].timeNs.size() == queues[1].samples.size());
    CHECK(series[0].timeNs.size() > 50);
    // Three copies apart from each other: up at each start, back to 0 at each end.
    CHECK(series[2].timeNs.size() == 6);
    CHECK(series[2].activities == 3);
    CHECK(series[3].timeNs.size() == 6);
    size_t hostWaits = 0, marked = 0;
    for (const IdleGap& gap : analyses.gaps) hostWaits += gap.kind == GapKind::kHostWait;
    for (const HostWaitMarks& marks : data->hostWaits) marked += marks.size();
    CHECK(hostWaits > 0);
    CHECK(marked == hostWaits);
    CHECK(model->tracks.size() == tracks);  // derived, not added to the model
    TimelineView timeline(*model, data, 1);
    CHECK(timeline.ShownDeviceCounters() == std::vector<uint32_t>{0, 1, 2, 3});
    TimelineView plain(*model, 2);  // built without the analyses: nothing derived
    CHECK(plain.ShownDeviceCounters().empty());
}
