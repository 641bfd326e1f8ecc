import Testing
import TrendlineStages

@Suite struct SmoothTests {
  @Test func centeredMeanShrinksAtTheEdges() {
    // Window 5, radius 2: i0 = (1+2+3)/3 = 2, i1 = (1+2+3+4)/4 = 2.5, i2 = 15/5 = 3,
    // i3 = (2+3+4+5)/4 = 3.5, i4 = (3+4+5)/3 = 4. Five values in, five out.
    let out = Smooth(method: .centeredMean, window: 5).apply([1, 2, 3, 4, 5])
    #expect(out == [2, 2.5, 3, 3.5, 4])
  }

  @Test func evenWindowIsTheNextOddOne() {
    // Window 4: radius 4 / 2 = 2, the same as window 5 (SPEC 5), not an off-centre window of 4.
    // On [6, 0, 3, 9]: i0 = (6+0+3)/3 = 3, i1 = (6+0+3+9)/4 = 4.5, i2 = 18/4 = 4.5,
    // i3 = (0+3+9)/3 = 4.
    #expect(Smooth(method: .centeredMean, window: 4).apply([6, 0, 3, 9]) == [3, 4.5, 4.5, 4])
    #expect(Smooth(method: .centeredMean, window: 5).apply([6, 0, 3, 9]) == [3, 4.5, 4.5, 4])
  }

  @Test func windowWiderThanTheSeries() {
    // Window 5 on two values: each window holds both, so both are the mean 5.
    #expect(Smooth(method: .centeredMean, window: 5).apply([4, 6]) == [5, 5])
    // Window 3 (radius 1) on one value is that value; on none, nothing.
    #expect(Smooth(method: .centeredMean, window: 3).apply([7]) == [7])
    #expect(Smooth(method: .centeredMean, window: 3).apply([]) == [])
  }

  @Test func windowOneIsTheIdentity() {
    // Window 1 → radius 0: each value is its own mean.
    #expect(Smooth(method: .centeredMean, window: 1).apply([3, 1, 2]) == [3, 1, 2])
  }

  @Test func trailingMean() {
    // Window 3 on [3, 6, 9, 12]: i0 = 3, i1 = (3+6)/2 = 4.5, i2 = 18/3 = 6, i3 = 27/3 = 9.
    #expect(Smooth(method: .trailingMean, window: 3).apply([3, 6, 9, 12]) == [3, 4.5, 6, 9])
  }

  @Test func ewma() {
    // α = 0.5 on [4, 8, 0]: s0 = 4, s1 = 0.5·8 + 0.5·4 = 6, s2 = 0.5·0 + 0.5·6 = 3.
    #expect(Smooth(method: .ewma(alpha: 0.5)).apply([4, 8, 0]) == [4, 6, 3])
    // α = 1 follows the data exactly.
    #expect(Smooth(method: .ewma(alpha: 1)).apply([4, 8, 0]) == [4, 8, 0])
  }

  @Test func defaultIsCenteredMeanOfFive() {
    #expect(Smooth() == Smooth(method: .centeredMean, window: 5))
  }
}
