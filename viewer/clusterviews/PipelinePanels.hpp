#pragma once
// Below the pipeline view's lanes: every stage's special operators (its transfers, those that
// redistribute a tensor, those that aggregate the gradients) and the attributes of the operator
// selected, with what the schedule says of it.
#include <cstdint>
#include <string>

#include "clusterviews/PipelineView.hpp"

namespace marey {

struct ClusterDocument;
struct ClusterRequest;

// "MatMul" of "MatMul_6" or "MatMul-op12": a name without the number its run gives it.
std::string OperatorTypeOfName(const std::string& name);

// What an operator is, as one word for the tooltip and the panel: "computation", "Send", ….
const char* PipeOpKindName(PipeOpKind kind);

// The figures of 'ref' as lines: name, kind, why it runs, stage, rank, start and length, and a
// transfer's microbatch and other end. O(1).
std::string OperatorDescription(const PipelineLoad& load, const PipeOperatorRef& ref);

// Asks to open the rank of 'ref' at that operator in its timeline.
void RequestOpenOperator(const PipelineLoad& load, const PipeOperatorRef& ref,
                         const ClusterDocument& document, ClusterRequest& request);

// The two panels side by side in 'height' px: the special operators of each stage, and the
// attributes of 'selected' (or how to choose one). O(stages).
void DrawPipelinePanels(const PipelineLoad& load, const PipeOperatorRef& selected,
                        const ClusterDocument& document, ClusterRequest& request, float height);

}  // namespace marey
