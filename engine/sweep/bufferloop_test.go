package sweep

import "testing"

// No named experiment runs a buffer too small for its loop
// (config.BufferLoops): their curves would show the buffer's cap, not the
// routing's. The acor-* experiments run the ACOR paper's 90-cycle switch
// on buffers that cover it.
func TestExperimentsCoverTheirBufferLoops(t *testing.T) {
	for _, e := range Experiments() {
		for _, c := range e.Spec.Series {
			for _, w := range c.BufferWarnings() {
				t.Errorf("%s, series %s: %v", e.Name, c.Name, w)
			}
		}
	}
}
