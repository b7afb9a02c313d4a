import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TwiceTest {
    @Test
    void doublesANumber() {
        assertEquals(4, Twice.twice(2));
    }
}
