package ui

import "github.com/hexops/vecty"

// elemID sets an element's id as an attribute, never as vecty's prop.ID.
// vecty reuses the DOM node at the same place in the next render and drops a
// property the new element lacks with `delete node.id`, which does not clear
// an accessor such as id: a reused node kept its old id. So after "+ add
// series" the tab that took the button's place was #add-series too, and a
// click on #add-series selected that tab. An attribute vecty drops is
// removed with removeAttribute.
func elemID(id string) vecty.Applyer { return vecty.Attribute("id", id) }
