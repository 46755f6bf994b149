package config

import "fmt"

// UseFOGSimModel sets every parameter whose FOGSim v5 behaviour differs from
// phitsim's default to FOGSim's value (the parameters' fogsim tag): the
// ejection gate, the transit outputs' busy time and FIFO room, idle routers,
// OLM's single candidate draw and intra-group misroute, ACOR's count. The
// thesis's and the ACOR paper's numbers came from FOGSim; VALIDATION.md
// compares the two simulators with this model.
func (c *Config) UseFOGSimModel() {
	for _, p := range params {
		if p.FOGSim == "" {
			continue
		}
		if err := p.SetString(c, p.FOGSim); err != nil {
			panic(fmt.Sprintf("config: %s's fogsim tag %q: %v", p.Path, p.FOGSim, err))
		}
	}
}

// FOGSimModel lists the parameters UseFOGSimModel sets, with their values.
func FOGSimModel() [][2]string {
	var out [][2]string
	for _, p := range params {
		if p.FOGSim != "" {
			out = append(out, [2]string{p.Path, p.FOGSim})
		}
	}
	return out
}
