#pragma once
// What one rank's device computed and held: its peak allocated memory (memory_record.csv), its
// FLOPs summary, its operators by FLOPs and its FLOPs by scope as a tree (MindSpore's FLOPs
// files, rank/RankFlops.hpp). Every figure is read from the rank's analysis, as `stats --json`'s
// "resources" gives it.
#include "rank/RankAnalysis.hpp"
#include "viewkit/View.hpp"

namespace marey {

struct RankFlops;

class ResourcesView : public View {
public:
    void Draw(ViewContext& context) override;
    void Draw(const RankAnalysis& analysis);

private:
    void DrawSummary(const RankFlops& flops);
    void DrawOperators(const RankFlops& flops);
    void DrawScopes(const RankFlops& flops);
};

}  // namespace marey
