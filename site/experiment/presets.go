package experiment

import (
	"phitsim/engine/config"
)

// Preset is a named experiment of the page.
type Preset struct {
	Name, Doc string
	Exp       Experiment
}

func named(c config.Config, name string, edit func(*config.Config)) config.Config {
	c.Name = name
	if edit != nil {
		edit(&c)
	}
	return c
}

func enginePreset(name string) config.Config {
	c, err := config.PresetByName(name)
	if err != nil {
		panic(err)
	}
	return c
}

// quick is the h=2 system with runs short enough for a browser: about a
// tenth of a second each.
func quick(pattern string) config.Config {
	c := enginePreset("h2")
	c.Sim.Warmup, c.Sim.Cycles, c.Sim.Seeds = 3000, 5000, 2
	c.Traffic.Pattern = pattern
	return c
}

func minVal(base config.Config) []config.Config {
	return []config.Config{
		named(base, "MIN", func(c *config.Config) { c.Routing.Name = "MIN" }),
		named(base, "VAL", func(c *config.Config) { c.Routing.Name = "VAL" }),
	}
}

// Default is the experiment a newcomer sees: MIN against Valiant under
// uniform traffic on the 72-node h=2 Dragonfly; it finishes in seconds.
func Default() Experiment { return Presets()[0].Exp }

// Presets are the page's experiments: quick comparisons first, then the
// engine's presets (config.Presets) as single-series load sweeps.
func Presets() []Preset {
	loads := func(from, to, step float64) Sweep { return Sweep{Param: LoadParam, From: from, To: to, Step: step} }
	ps := []Preset{
		{"quick-un", "MIN vs VAL, uniform traffic, h=2 (72 nodes): a few seconds",
			Experiment{minVal(quick("UN")), loads(0.1, 1, 0.1)}},
		{"quick-adv1", "MIN vs VAL, adversarial ADV+1, h=2: MIN saturates at 1/(a·p) = 0.125",
			Experiment{minVal(quick("ADV")), loads(0.05, 0.6, 0.05)}},
		{"min-val-un-h4", "MIN vs VAL under UN, h=4 (1,056 nodes): about a minute",
			Experiment{minVal(enginePreset("min-un")), loads(0.1, 0.9, 0.2)}},
		{"min-val-adv1-h4", "MIN vs VAL under ADV+1, h=4: MIN capped at 1/(a·p) = 0.031, VAL near 0.5",
			Experiment{[]config.Config{
				named(enginePreset("min-adv1"), "MIN", nil),
				named(enginePreset("val-adv1"), "VAL", nil)}, loads(0.05, 0.55, 0.1)}},
		{"valgroup-advh", "VAL_GROUP vs VAL under ADV+h, h=4: the intermediate group's local link caps VAL_GROUP",
			Experiment{[]config.Config{
				named(enginePreset("valgroup-advh"), "VAL_GROUP", nil),
				named(enginePreset("valgroup-advh"), "VAL", func(c *config.Config) { c.Routing.Name = "VAL" })},
				loads(0.05, 0.55, 0.1)}},
		{"fairness-advc", "MIN under ADVc, h=2: plateau at h/(a·p) and unfair injection (see the per-router bars)",
			Experiment{[]config.Config{named(quick("ADVC"), "MIN ADVc", nil)}, loads(0.05, 0.5, 0.05)}},
		{"transient", "UN switching to ADV+1 during the run, MIN vs VAL, h=2: see the time series",
			Experiment{minVal(named(quick("UN"), "", func(c *config.Config) {
				c.Traffic.Load = 0.3
				c.Traffic.SwitchCycle, c.Traffic.SwitchPattern = 2000, "ADV"
				c.Sim.Interval = 100
			})), loads(0.3, 0.3, 0.1)}},
		{"buffers", "Accepted load vs local buffer size under ADV+1 with VAL, h=2: a sweep of another variable",
			Experiment{[]config.Config{named(quick("ADV"), "VAL", func(c *config.Config) {
				c.Routing.Name, c.Traffic.Load = "VAL", 0.5
			})}, Sweep{Param: "router.localBuffer", From: 8, To: 64, Step: 8}}},
	}
	for _, p := range config.Presets() {
		c := p.Config
		ps = append(ps, Preset{"engine:" + p.Name, "engine preset: " + p.Doc,
			Experiment{[]config.Config{c}, loads(0.1, 0.9, 0.2)}})
	}
	return ps
}

// PresetByName finds a preset.
func PresetByName(name string) (Experiment, bool) {
	for _, p := range Presets() {
		if p.Name == name {
			return p.Exp.Clone(), true
		}
	}
	return Experiment{}, false
}
