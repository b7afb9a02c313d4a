package vowels

import "strings"

func CountVowels(word string) int {
	count := 0
	for _, letter := range word {
		if strings.ContainsRune("aeiou", letter) {
			count++
		}
	}
	return count
}
