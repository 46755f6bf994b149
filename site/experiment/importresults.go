package experiment

import (
	"encoding/json"
	"errors"
	"fmt"

	"phitsim/engine/config"
	"phitsim/engine/result"
	"phitsim/engine/sweep"
)

// ImportResults reads a results document into the page's Results: the
// CLI's sweep JSON ('phitsim sweep -out', 'phitsim merge -out' of a plan
// run on a cluster: sweep.Outcome) or the page's own JSON export (Export).
// The experiment is rebuilt from the document and expanded into jobs as the
// page expands its own; each run goes to its job (the CLI's runs are in job
// order, unfinished ones left out: matched by configuration and seed), so
// that the points the page aggregates are the document's. A run that is no
// job of the experiment, or a document of neither kind, is an error.
func ImportResults(data []byte) (*Results, error) {
	var doc struct {
		Spec *sweep.Spec       `json:"spec"`
		Exp  *Experiment       `json:"experiment"`
		Runs []*result.Result  `json:"runs"`
		Jobs []JobRef          `json:"jobs"`
		Pts  []json.RawMessage `json:"points"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not a results JSON: %w", err)
	}
	switch {
	case doc.Exp != nil:
		return importExport(doc.Exp, doc.Jobs, doc.Runs)
	case doc.Spec != nil:
		return importOutcome(doc.Spec, doc.Runs)
	}
	return nil, errors.New("not a results JSON: it has neither \"spec\" (a 'phitsim sweep -out' or 'phitsim merge -out' document) nor \"experiment\" (the page's export); a configuration is opened with Import config JSON")
}

// importOutcome: the CLI's sweep document.
func importOutcome(sp *sweep.Spec, runs []*result.Result) (*Results, error) {
	e := Experiment{Series: sp.Series, Sweep: Sweep{Param: sp.XName(), List: sp.Xs(), Tied: sp.Tied}}
	if len(e.Sweep.List) == 0 {
		return nil, errors.New("the document's sweep has no values")
	}
	res, err := NewResults(e)
	if err != nil {
		return nil, fmt.Errorf("the document's experiment: %w", err)
	}
	// each run by its seed and configuration, as recorded
	byKey := map[string][]*result.Result{}
	for _, x := range runs {
		if x != nil {
			k := runKey(&x.Config, x.Seed)
			byKey[k] = append(byKey[k], x)
		}
	}
	res.attach(func(_ int, j Job) *result.Result {
		k := runKey(&j.Config, j.Seed)
		if q := byKey[k]; len(q) > 0 {
			byKey[k] = q[1:]
			return q[0]
		}
		return nil
	})
	for k, x := range runs {
		if x != nil && len(byKey[runKey(&x.Config, x.Seed)]) > 0 {
			return nil, fmt.Errorf("run %d of the document (seed %d) is no run of its experiment", k+1, x.Seed)
		}
	}
	return res, nil
}

// attach gives each job the run find returns (nil: not finished), then to
// the seeds sim.precision added for the points it completes (MoreSeeds),
// until none is added: a document's extra seeds come back as its runs.
func (r *Results) attach(find func(i int, j Job) *result.Result) {
	for from := 0; from < len(r.Jobs); {
		for i := from; i < len(r.Jobs); i++ {
			r.Runs[i] = find(i, r.Jobs[i])
		}
		from = len(r.Jobs)
		r.MoreSeeds()
	}
}

// runKey names a run by its recorded configuration and seed.
func runKey(c *config.Config, seed uint64) string {
	b, err := json.Marshal(c)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d %s", seed, b)
}

// importExport: the page's own JSON export.
func importExport(e *Experiment, refs []JobRef, runs []*result.Result) (*Results, error) {
	res, err := NewResults(*e)
	if err != nil {
		return nil, fmt.Errorf("the document's experiment: %w", err)
	}
	if len(refs) < len(res.Jobs) {
		return nil, fmt.Errorf("the document lists %d jobs, its experiment has %d", len(refs), len(res.Jobs))
	}
	for i, j := range res.Jobs {
		if ref := refs[i]; ref.Series != j.Series || ref.Point != j.Point || ref.Seed != j.Seed {
			return nil, fmt.Errorf("job %d of the document is not its experiment's job %d", i+1, i+1)
		}
	}
	// the jobs sim.precision added follow, in the order they were added
	type key struct {
		series, point int
		seed          uint64
	}
	at := map[key]int{}
	for i, ref := range refs[len(res.Jobs):] {
		at[key{ref.Series, ref.Point, ref.Seed}] = len(res.Jobs) + i
	}
	var bad error
	res.attach(func(i int, j Job) *result.Result {
		k := i
		if i >= len(refs) || refs[i].Series != j.Series || refs[i].Point != j.Point || refs[i].Seed != j.Seed {
			var ok bool
			if k, ok = at[key{j.Series, j.Point, j.Seed}]; !ok {
				return nil
			}
		}
		delete(at, key{j.Series, j.Point, j.Seed})
		ref := refs[k]
		if ref.Result < 0 {
			return nil
		}
		if ref.Result >= len(runs) || runs[ref.Result] == nil {
			bad = fmt.Errorf("job %d names run %d, which the document does not hold", k+1, ref.Result)
			return nil
		}
		return runs[ref.Result]
	})
	if bad != nil {
		return nil, bad
	}
	for _, k := range at {
		if refs[k].Result >= 0 {
			return nil, fmt.Errorf("job %d of the document (seed %d) is no run of its experiment", k+1, refs[k].Seed)
		}
	}
	return res, nil
}
