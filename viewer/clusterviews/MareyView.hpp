#pragma once
// The Marey view of a cluster: devices down the side in pipeline order, time across, each
// operator a bar on its device's row and a band to the same operator on the row below. The step
// is read off the UI thread.
#include "clusterviews/MareyState.hpp"
#include "viewkit/View.hpp"

namespace marey {

class MareyView : public View {
public:
    explicit MareyView(ClusterDocument& cluster);
    ~MareyView() override;

    void Draw(ViewContext& context) override;
    // The step shown is being read.
    bool Busy() const override;
    // Waits for the step being read and shows it.
    void Wait() override;
    // Zooms from the whole step into a hundredth of it, drifting right.
    void BenchmarkFrame(int frame, int frameCount) override;

    const MareyState& state() const { return m_state; }

private:
    ClusterDocument& m_document;
    MareyState m_state;  // its job reads the cluster: the view goes before the cluster does
};

}  // namespace marey
