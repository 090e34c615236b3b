package woovi

// CountedDay is countedDay, for the package's external tests to pick dates
// that are business days.
var CountedDay = countedDay
