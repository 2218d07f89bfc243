import SomniqCore

/// The pages' colours for classes and tiers: Okabe and Ito's eight-colour palette
/// (M. Okabe, K. Ito, "Color Universal Design (CUD): how to make figures and presentations
/// that are friendly to colorblind people", 2002/2008), whose colours stay apart for people
/// with protanopia, deuteranopia and tritanopia. Under Machado et al.'s simulation
/// (IEEE TVCG 15(6), 2009, severity 1) no two of them are closer than CIEDE2000 10.9
/// (orange and reddish purple, tritanopia; `PaletteTests` checks at least 10).
///
/// Eight colours for sixteen classes: each colour is worn by two classes, one solid and
/// one hatched (white diagonal stripes in the charts and in the legend's swatch), so that
/// no two classes look alike by colour and pattern together. The classes heard most in a
/// bedroom (snoring, breathing, cough, speech, …) are the solid ones, each its own colour;
/// the rarer ones are hatched. The seventeenth, a smoke alarm's low-battery chirp, is no
/// sound of a sleeper or a room but a device's: it wears a neutral dark grey (`slate`).
public enum Palette {
    /// Okabe–Ito, in their published order.
    public static let black = "#000000", orange = "#E69F00", skyBlue = "#56B4E9", bluishGreen = "#009E73",
                      yellow = "#F0E442", blue = "#0072B2", vermillion = "#D55E00", reddishPurple = "#CC79A7"
    public static let okabeIto = [black, orange, skyBlue, bluishGreen, yellow, blue, vermillion, reddishPurple]
    /// A neutral dark grey, CIEDE2000 22 or more from each of the eight under every
    /// simulation `PaletteTests` makes (the low tier's lighter grey comes within 6.2 of
    /// reddish purple for a deuteranope).
    public static let slate = "#505050"

    /// How a class is drawn: its colour, and whether it is hatched.
    public struct Swatch: Hashable, Sendable {
        public var colour: String
        public var hatched: Bool
    }

    // `swatch(_:)`, a class's colour and hatching, is made at build time from
    // classes/classes.tsv's `colour` (Plugins/EmbedData, scripts/embed-class-looks.sh).

    /// A tier's colour, warm to cool as it is urgent: vermillion, orange, blue (Okabe–Ito),
    /// and a neutral grey for low. The tier is always written beside it too.
    public static func tier(_ t: Tier) -> String {
        switch t {
        case .critical: vermillion
        case .high: orange
        case .medium: blue
        case .low: "#999999"
        }
    }

    /// The stripes of a hatched class, as an SVG pattern `hatch-CLASS` in user units.
    static func pattern(_ c: SoundClass) -> String {
        "<pattern id=\"hatch-\(c.rawValue)\" patternUnits=\"userSpaceOnUse\" width=\"8\" height=\"8\" patternTransform=\"rotate(45)\">"
            + "<rect width=\"8\" height=\"8\" fill=\"\(swatch(c).colour)\"/><rect width=\"3\" height=\"8\" fill=\"#fff\"/></pattern>"
    }

    /// What an SVG shape of class `c` is filled with: its colour, or its pattern (which the
    /// same SVG must define, `pattern(c)`).
    static func fill(_ c: SoundClass) -> String {
        swatch(c).hatched ? "url(#hatch-\(c.rawValue))" : swatch(c).colour
    }

    /// A small square for a legend or a table: the class's colour, hatched when it is.
    static func key(_ c: SoundClass) -> String {
        let s = swatch(c)
        let stripes = s.hatched ? "<path d=\"M-1 5L5 -1M-1 11L11 -1M5 13L13 5\" stroke=\"#fff\" stroke-width=\"2\"/>" : ""
        return "<svg class=\"key\" viewBox=\"0 0 12 12\" width=\"12\" height=\"12\" aria-hidden=\"true\"><rect width=\"12\" height=\"12\" fill=\"\(s.colour)\"/>"
            + stripes + outline + "</svg>"
    }

    /// A thin grey edge, so that yellow shows on white.
    private static let outline = "<rect x=\"0.5\" y=\"0.5\" width=\"11\" height=\"11\" fill=\"none\" stroke=\"#000\" stroke-opacity=\"0.35\"/>"

    /// A small square of a tier's colour.
    static func key(_ t: Tier) -> String {
        "<svg class=\"key\" viewBox=\"0 0 12 12\" width=\"12\" height=\"12\" aria-hidden=\"true\"><rect width=\"12\" height=\"12\" fill=\"\(tier(t))\"/>" + outline + "</svg>"
    }
}
