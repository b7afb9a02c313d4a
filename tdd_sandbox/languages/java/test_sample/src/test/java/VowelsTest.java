import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class VowelsTest {
    @Test
    void countsEachVowel() {
        assertEquals(3, Vowels.countVowels("banana"));
    }
}
