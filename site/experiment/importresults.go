package experiment

import (
	"bytes"
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
	k := 0
	for i, j := range res.Jobs {
		if k < len(runs) && runs[k] != nil && runs[k].Seed == j.Seed && sameConfig(&runs[k].Config, j) {
			res.Runs[i] = runs[k]
			k++
		}
	}
	if k < len(runs) {
		return nil, fmt.Errorf("run %d of the document (seed %d) is no run of its experiment, in its order", k+1, seedOf(runs[k]))
	}
	return res, nil
}

// importExport: the page's own JSON export.
func importExport(e *Experiment, refs []JobRef, runs []*result.Result) (*Results, error) {
	res, err := NewResults(*e)
	if err != nil {
		return nil, fmt.Errorf("the document's experiment: %w", err)
	}
	if len(refs) != len(res.Jobs) {
		return nil, fmt.Errorf("the document lists %d jobs, its experiment has %d", len(refs), len(res.Jobs))
	}
	for i, ref := range refs {
		j := res.Jobs[i]
		if ref.Series != j.Series || ref.Point != j.Point || ref.Seed != j.Seed {
			return nil, fmt.Errorf("job %d of the document is not its experiment's job %d", i+1, i+1)
		}
		if ref.Result < 0 {
			continue
		}
		if ref.Result >= len(runs) || runs[ref.Result] == nil {
			return nil, fmt.Errorf("job %d names run %d, which the document does not hold", i+1, ref.Result)
		}
		res.Runs[i] = runs[ref.Result]
	}
	return res, nil
}

// sameConfig: a run's recorded configuration is its job's.
func sameConfig(c *config.Config, j Job) bool {
	a, err1 := json.Marshal(c)
	b, err2 := json.Marshal(&j.Config)
	return err1 == nil && err2 == nil && bytes.Equal(a, b)
}

func seedOf(r *result.Result) uint64 {
	if r == nil {
		return 0
	}
	return r.Seed
}
