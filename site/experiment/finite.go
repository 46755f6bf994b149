package experiment

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
)

// marshalFinite is json.MarshalIndent that does not fail on a NaN or an
// infinity (encoding/json refuses them): such a number, which only an
// upstream bug can put in a finished run, is written as null and its path
// listed under "nonFinite", so that a finished run is never lost to an
// output error. Documents without one marshal exactly as json does.
func marshalFinite(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", " ")
	var ue *json.UnsupportedValueError
	if err == nil || !errors.As(err, &ue) {
		return b, err
	}
	var bad []string
	tree := finiteTree(reflect.ValueOf(v), "", &bad)
	if m, ok := tree.(map[string]any); ok {
		m["nonFinite"] = bad
	}
	return json.MarshalIndent(tree, "", " ")
}

// finiteTree rebuilds v as maps, slices and plain values following the
// json tags (name, omitempty, omitzero, "-"), with non-finite floats as nil.
func finiteTree(v reflect.Value, path string, bad *[]string) any {
	switch v.Kind() {
	case reflect.Invalid:
		return nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return finiteTree(v.Elem(), path, bad)
	case reflect.Float32, reflect.Float64:
		x := v.Float()
		if math.IsNaN(x) || math.IsInf(x, 0) {
			*bad = append(*bad, fmt.Sprintf("%s = %g", path, x))
			return nil
		}
		return x
	case reflect.Struct:
		m, inlined := map[string]any{}, map[string]any{}
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			name, opt, _ := strings.Cut(f.Tag.Get("json"), ",")
			fv := v.Field(i)
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
				// an embedded struct's fields are the outer struct's;
				// the outer struct's own fields win a conflict
				if sub, ok := finiteTree(fv, path, bad).(map[string]any); ok {
					for k, x := range sub {
						inlined[k] = x
					}
				}
				continue
			}
			if !f.IsExported() || (name == "-" && opt == "") {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if strings.Contains(","+opt+",", ",omitempty,") && emptyJSON(fv) {
				continue
			}
			if strings.Contains(","+opt+",", ",omitzero,") && fv.IsZero() {
				continue // encoding/json's omitzero (config.Config's physical section)
			}
			m[name] = finiteTree(fv, join(path, name), bad)
		}
		for k, x := range inlined {
			if _, ok := m[k]; !ok {
				m[k] = x
			}
		}
		return m
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return v.Interface() // base64, as json writes bytes
		}
		out := make([]any, v.Len())
		for i := range out {
			out[i] = finiteTree(v.Index(i), fmt.Sprintf("%s[%d]", path, i), bad)
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		m := map[string]any{}
		for it := v.MapRange(); it.Next(); {
			k := fmt.Sprint(it.Key().Interface())
			m[k] = finiteTree(it.Value(), join(path, k), bad)
		}
		return m
	}
	return v.Interface()
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// emptyJSON is encoding/json's omitempty test.
func emptyJSON(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
