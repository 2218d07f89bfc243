import AlarmBattery
import Foundation
import SomniqCore
import SomniqIO
import Testing

/// What a home can never teach away (docs/home.md): with every window of the alarm
/// battery's look-alikes remembered as "not this" for every class, at a radius that takes
/// in everything, every alarm the pipeline finds without the memory it still finds, as one
/// event, at the same onset, and alerts.
@Test func everyAlarmIsStillFoundWhenEveryLookalikeIsMarkedNotThis() throws {
    let transform = FFTWTransform(size: 1024)
    var entries: [HomeMemory.Entry] = []
    for i in 0..<12 {
        let item = BatterySample.battery.lookalikeCase(i, seed: BatterySample.lookalikeSeed)
        let pipeline = try Pipeline(transform: transform, profile: .balanced, reportsInputs: true)
        var inputs: [[Float]] = []
        item.samples.withUnsafeBufferPointer { all in
            var k = 0
            func keep(_ outputs: [PipelineOutput]) {
                for case let .inputs(_, x) in outputs { inputs.append(x) }
            }
            while k < all.count {
                let n = min(CaseRun.block, all.count - k)
                keep(pipeline.push(UnsafeBufferPointer(rebasing: all[k..<(k + n)])))
                k += n
            }
            keep(pipeline.finish())
        }
        for x in inputs.enumerated() where x.offset % 4 == 0 {
            for c in SoundClass.allCases {
                entries.append(.init(kind: .not, soundClass: c, eventID: "lookalike-\(i)", at: nil, inputs: x.element))
            }
        }
    }
    let memory = HomeMemory(entries: entries, radius: 1e6)
    #expect(!memory.remembers(.smokeAlarm) && memory.remembers(.phoneRing))
    var found = 0
    for i in 0..<20 {
        let item = BatterySample.battery.alarmCase(i, seed: BatterySample.alarmSeed)
        let plain = try CaseRun(item, transform: transform, profile: .balanced)
        let taught = try CaseRun(item, transform: transform, profile: .balanced, home: memory)
        #expect(taught.foundOnce == plain.foundOnce && taught.found == plain.found, "\(item.name)")
        #expect(taught.events.map(\.onset) == plain.events.map(\.onset), "\(item.name)")
        #expect(taught.heldBack == 0, "\(item.name): a smoke alarm's alert held back")
        if taught.found { found += 1 }
    }
    #expect(found >= 15, "the sample's alarms are found (\(found) of 20)")
}
