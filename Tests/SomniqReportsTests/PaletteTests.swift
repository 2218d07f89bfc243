import Foundation
@testable import SomniqReports
import SomniqTestSupport
import Testing
import SomniqCore

/// `Palette`: the classes' and tiers' colours stay apart for people with colour-blindness.
/// Each colour is seen as a dichromat would see it (Machado, Oliveira and Fernandes, "A
/// physiologically-based model for simulation of color vision deficiency", IEEE TVCG 15(6),
/// 2009, severity 1.0, applied to linear sRGB) and compared by CIEDE2000 (CIE 142-2001).
/// The threshold: 10. A difference of 1 to 2 is just noticeable side by side; 10 is two
/// colours a reader names apart in a chart's legend. Okabe–Ito's closest pair is 10.9
/// (orange and reddish purple, tritanopia); under deuteranopia 11.6, protanopia 12.2.
@Suite struct PaletteTests {
    static let threshold = 10.0

    /// Machado et al.'s matrices for full protanopia, deuteranopia and tritanopia.
    static let simulations: [(String, [[Double]])] = [
        ("normal vision", [[1, 0, 0], [0, 1, 0], [0, 0, 1]]),
        ("protanopia", [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]),
        ("deuteranopia", [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]),
        ("tritanopia", [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]),
    ]

    @Test func everyClassHasAColourAndPatternOfItsOwn() {
        let swatches = SoundClass.allCases.map(Palette.swatch)
        #expect(Set(swatches).count == SoundClass.allCases.count, "17 classes, 17 swatches")
        #expect(Set(swatches.map(\.colour)) == Set(Palette.okabeIto + [Palette.slate]),
                "the eight colours, and a grey for the low-battery chirp, and no other")
        #expect(swatches.filter { $0.colour == Palette.slate } == [Palette.Swatch(colour: Palette.slate, hatched: false)])
        for colour in Palette.okabeIto {
            #expect(swatches.filter { $0.colour == colour }.map(\.hatched).sorted { !$0 && $1 } == [false, true], "\(colour): one solid, one hatched")
        }
        // Those of one tier that a night often has together are never one colour.
        #expect(Palette.swatch(.cough).colour != Palette.swatch(.babyCry).colour)
        #expect(Palette.swatch(.snoring).colour != Palette.swatch(.breathing).colour)
    }

    @Test func theColoursStayApartForEveryKindOfColourBlindness() {
        var report: [String] = []
        for (name, palette) in [("Okabe–Ito", Palette.okabeIto), ("Okabe–Ito and the low-battery chirp's grey", Palette.okabeIto + [Palette.slate]),
                                ("tiers", Tier.allCases.map(Palette.tier))] {
            for (vision, matrix) in Self.simulations {
                var closest = (Double.infinity, "", "")
                for i in palette.indices {
                    for j in palette.indices where j > i {
                        let d = Self.ciede2000(Self.lab(palette[i], matrix), Self.lab(palette[j], matrix))
                        if d < closest.0 { closest = (d, palette[i], palette[j]) }
                    }
                }
                report.append(String(format: "%@, %@: closest %@ and %@, CIEDE2000 %.1f", name, vision, closest.1, closest.2, closest.0))
                #expect(closest.0 >= Self.threshold, "\(name), \(vision): \(closest.1) and \(closest.2) are \(closest.0) apart")
            }
        }
        print(report.joined(separator: "\n"))
    }

    /// The formula against Sharma, Wu and Dalal's test data (Color Res. Appl. 30(1), 2005),
    /// pairs 1, 7 and 17.
    @Test func ciede2000AgreesWithSharmasTestData() {
        #expect(abs(Self.ciede2000((50, 2.6772, -79.7751), (50, 0, -82.7485)) - 2.0425) < 1e-4)
        #expect(abs(Self.ciede2000((50, 0, 0), (50, -1, 2)) - 2.3669) < 1e-4)
        #expect(abs(Self.ciede2000((50, 2.5, 0), (73, 25, -18)) - 27.1492) < 1e-4)
    }

    /// The night's page draws its classes in the palette's colours, its rarer ones hatched.
    @Test func theReportDrawsInThePalette() throws {
        let (log, _) = try threeNights(in: temporaryDirectory())
        let html = HTMLReport.render(try NightReports.night(in: log, key: "2026-11-22"), version: "t")
        #expect(html.contains("fill=\"\(Palette.swatch(.snoring).colour)\""))
        #expect(html.contains("<pattern id=\"hatch-smoke_alarm\"") && html.contains("fill=\"url(#hatch-smoke_alarm)\""))
        #expect(!html.contains("#c62828"), "the old red")
    }

    // MARK: colour science

    /// CIELAB (D65) of an sRGB colour `#RRGGBB`, as seen through `matrix` (on linear RGB).
    static func lab(_ hex: String, _ matrix: [[Double]]) -> (Double, Double, Double) {
        let v = Int(hex.dropFirst(), radix: 16)!
        let srgb = [Double(v >> 16 & 255), Double(v >> 8 & 255), Double(v & 255)].map { $0 / 255 }
        let linear = srgb.map { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        let seen = matrix.map { row in min(1, max(0, zip(row, linear).map(*).reduce(0, +))) }
        let x = 0.4124564 * seen[0] + 0.3575761 * seen[1] + 0.1804375 * seen[2]
        let y = 0.2126729 * seen[0] + 0.7151522 * seen[1] + 0.0721750 * seen[2]
        let z = 0.0193339 * seen[0] + 0.1191920 * seen[1] + 0.9503041 * seen[2]
        func f(_ t: Double) -> Double { t > pow(6.0 / 29, 3) ? cbrt(t) : t / (3 * pow(6.0 / 29, 2)) + 4.0 / 29 }
        let (fx, fy, fz) = (f(x / 0.95047), f(y), f(z / 1.08883))
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// CIEDE2000 (kL = kC = kH = 1), as Sharma et al. write it out.
    static func ciede2000(_ p: (Double, Double, Double), _ q: (Double, Double, Double)) -> Double {
        func deg(_ r: Double) -> Double { r * 180 / .pi }
        func rad(_ d: Double) -> Double { d * .pi / 180 }
        let (l1, a1, b1) = p, (l2, a2, b2) = q
        let cBar = (hypot(a1, b1) + hypot(a2, b2)) / 2
        let g = 0.5 * (1 - sqrt(pow(cBar, 7) / (pow(cBar, 7) + pow(25, 7))))
        let (a1p, a2p) = ((1 + g) * a1, (1 + g) * a2)
        let (c1p, c2p) = (hypot(a1p, b1), hypot(a2p, b2))
        func hue(_ b: Double, _ a: Double) -> Double { a == 0 && b == 0 ? 0 : (deg(atan2(b, a)) + 360).truncatingRemainder(dividingBy: 360) }
        let (h1p, h2p) = (hue(b1, a1p), hue(b2, a2p))
        let dL = l2 - l1, dC = c2p - c1p
        var dh = 0.0
        if c1p * c2p != 0 {
            dh = h2p - h1p
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * sqrt(c1p * c2p) * sin(rad(dh / 2))
        let lBar = (l1 + l2) / 2, cBarP = (c1p + c2p) / 2
        var hBar = h1p + h2p
        if c1p * c2p != 0 {
            hBar = abs(h1p - h2p) <= 180 ? (h1p + h2p) / 2 : (h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2)
        }
        let t = 1 - 0.17 * cos(rad(hBar - 30)) + 0.24 * cos(rad(2 * hBar)) + 0.32 * cos(rad(3 * hBar + 6)) - 0.20 * cos(rad(4 * hBar - 63))
        let dTheta = 30 * exp(-pow((hBar - 275) / 25, 2))
        let rC = 2 * sqrt(pow(cBarP, 7) / (pow(cBarP, 7) + pow(25, 7)))
        let sL = 1 + 0.015 * pow(lBar - 50, 2) / sqrt(20 + pow(lBar - 50, 2))
        let sC = 1 + 0.045 * cBarP, sH = 1 + 0.015 * cBarP * t
        let rT = -sin(rad(2 * dTheta)) * rC
        return sqrt(pow(dL / sL, 2) + pow(dC / sC, 2) + pow(dH / sH, 2) + rT * (dC / sC) * (dH / sH))
    }
}
