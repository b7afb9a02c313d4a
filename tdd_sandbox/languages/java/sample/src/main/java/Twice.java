public class Twice {
    public static int twice(int n) {
        return 2 * n;
    }
}
