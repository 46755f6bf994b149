package figures

import (
	"fmt"
	"strings"
)

// Uncarded is a figure of the seeds the engine runs that has no card, and
// why: its claim cannot be read at a cost a browser and the regression
// test can bear, or not with the claim kinds a card checks.
type Uncarded struct {
	Figure string // number and title
	Paper  string // title and section
	Runs   string // the experiments that run it
	Why    string
}

// WithoutCard are the uncarded figures, in reading order.
var WithoutCard = []Uncarded{
	{
		Figure: "Figs. 11–12: the second thresholds, IT₂ and DT₂",
		Paper:  paperACOR + ", §6.2.2",
		Runs:   "`acor-fig11-adv1`, `acor-fig11-advh` (IT₂ ∈ {250, 500, 1,000}), `acor-fig12-adv1`, `acor-fig12-advh` (DT₂ ∈ {5, 15, 50}), 1,056 hosts",
		Why:    "they govern the step from CRG-Sw to RRG-Sw, which no router takes up to 0.45 at 1,056 hosts (VAL CRG-Sw saturates under ADV+h only near 0.5) nor at 342 hosts at 0.25 and 0.30 (5 seeds): the runs with IT₂ = 250 / 500 / 1,000 (ADV+h), and with DT₂ = 5 / 15 / 50 (ADV+1), are identical (the paper: the second threshold's \"impact is rather limited\"). A card would compare identical runs; past 0.5 every point is saturated (the next row)",
	},
	{
		Figure: "Fig. 13: the second switch, to RRG-Sw where VAL CRG-Sw saturates, and the 16,512-host panel",
		Paper:  paperACOR + ", §6.2.2",
		Runs:   "`acor-fig13-advh`, `acor-fig13-adv1` (1,056 hosts, to 0.6); the 16,512-host panel on the CLI (`-preset acor-5256 -set topology.h=8 -set topology.a=16 -set topology.p=8` with IT₁/DT₁ = 10/3)",
		Why:    "at 1,056 hosts VAL CRG-Sw saturates under ADV+h only near 0.5 and 3L reaches RRG-Sw only past it (92% of the router-cycles at 0.55), where every point is saturated and RRG-Sw saturates below CRG-Sw (0.467 against 0.491 accepted), so the switch shows as a lower throughput, not as following an envelope; `acor-fig13-advh` takes about 7 min in a browser (estimated) and the 16,512-host panel 16 times the hosts. The first switch has its cards (acor-13, acor-13-low)",
	},
}

// WithoutCardMarkdown is FIGURES.md's section on the uncarded figures.
func WithoutCardMarkdown() string {
	var b strings.Builder
	b.WriteString("\n## Figures without a card\n\nFigures of the seeds the engine runs whose claim has no card, and why.\n\n| Figure | Paper | Runs | Why no card |\n|---|---|---|---|\n")
	for _, u := range WithoutCard {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", u.Figure, u.Paper, u.Runs, u.Why)
	}
	return b.String()
}

// Document is engine/FIGURES.md: the table with its measurements and the
// figures without a card.
func Document(measured map[string]Recorded) string {
	return Markdown(measured) + WithoutCardMarkdown()
}
