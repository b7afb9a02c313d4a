package vowels

import "testing"

func TestCountVowelsCountsEachVowel(t *testing.T) {
	if got := CountVowels("banana"); got != 3 {
		t.Errorf("CountVowels(\"banana\") = %d, want 3", got)
	}
}
