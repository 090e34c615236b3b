package postbackevents

import "testing"

// Each type and each of its statuses is listed once and described.
func TestCatalogWellFormed(t *testing.T) {
	types, resources := map[string]bool{}, map[string]bool{}
	for _, ty := range Catalog {
		if ty.TransactionType == "" || ty.ResourceType == "" || ty.Description == "" || len(ty.Statuses) == 0 {
			t.Errorf("incomplete type %+v", ty)
		}
		if types[ty.TransactionType] || resources[ty.ResourceType] {
			t.Errorf("%s (%s) listed twice", ty.TransactionType, ty.ResourceType)
		}
		types[ty.TransactionType], resources[ty.ResourceType] = true, true
		seen := map[string]bool{}
		for _, s := range ty.Statuses {
			if s.Name == "" || s.Description == "" || seen[s.Name] {
				t.Errorf("%s: status %+v empty, undescribed or listed twice", ty.TransactionType, s)
			}
			seen[s.Name] = true
		}
	}
}
